//===- HatScheT.cpp - HatScheT graphML instances --------------------------===//
//
// The structure is checked as strictly as the values: an element, attribute
// or data key this reader does not know is an error rather than something
// silently skipped, because a skipped key (a per-node latency, say) would
// change the problem without anyone noticing. What the instance files carry
// besides the scheduling data (graphML <key> declarations, the resource
// model's <Cost> entries and physicalDelay, the edges' deptype and id) is
// recognised and checked for shape, then ignored.
//
//===----------------------------------------------------------------------===//

#include "scheduler/io/HatScheT.h"
#include "scheduler/io/XML.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace tilepipe;
using namespace tilepipe::io;
using llvm::Error;
using llvm::StringRef;

namespace {

struct ResourceModelEntry {
  std::string name;
  int64_t latency = 0;
  int64_t blockingTime = 0;
  int64_t limit = -1;
  unsigned line = 0;
};

struct Node {
  std::string id;
  std::string name;
  std::string resource;
  unsigned line = 0;
  unsigned resourceLine = 0;
};

struct Edge {
  std::string source, target;
  int64_t delay = 0;
  int64_t distance = 0;
  unsigned line = 0;
};

/// Errors of one file: "file:line: message".
class FileErrors {
public:
  explicit FileErrors(StringRef fileName) : fileName(fileName) {}

  Error fail(unsigned line, const llvm::Twine &message) const {
    return makeReadError(fileName, line, 0, message);
  }

  /// Only the listed attributes; `required` ones must be present.
  Error checkAttributes(const xml::Element &e,
                        llvm::ArrayRef<StringRef> required,
                        llvm::ArrayRef<StringRef> optional) const {
    for (const xml::Attribute &attr : e.attributes)
      if (!llvm::is_contained(required, attr.name) &&
          !llvm::is_contained(optional, attr.name)) {
        std::vector<StringRef> known(required.begin(), required.end());
        known.insert(known.end(), optional.begin(), optional.end());
        std::string expected =
            known.empty() ? "" : " (expected " + llvm::join(known, ", ") + ")";
        return fail(attr.line, "unknown attribute '" + attr.name + "' on <" +
                                   e.name + ">" + expected);
      }
    for (StringRef name : required)
      if (!e.findAttribute(name))
        return fail(e.line, "<" + e.name + "> needs attribute '" + name + "'");
    return Error::success();
  }

  /// Only whitespace between the children of a structural element.
  Error checkNoText(const xml::Element &e) const {
    if (!e.hasOnlyBlankText())
      return fail(e.line, "unexpected text inside <" + e.name + ">");
    return Error::success();
  }

  Error checkNoChildren(const xml::Element &e) const {
    if (!e.children.empty())
      return fail(e.children.front().line, "unexpected element <" +
                                               e.children.front().name +
                                               "> inside <" + e.name + ">");
    return Error::success();
  }

  /// A decimal integer in [min, max], surrounding whitespace allowed.
  Error parseInt(StringRef text, unsigned line, StringRef what, int64_t min,
                 int64_t max, int64_t &out) const {
    StringRef trimmed = text.trim(" \t\n");
    int64_t value = 0;
    StringRef digits = trimmed;
    digits.consume_front("-");
    if (digits.empty() || !llvm::all_of(digits, llvm::isDigit) ||
        trimmed.getAsInteger(10, value))
      return fail(line, what + " must be an integer, got '" + text + "'");
    if (value < min || value > max)
      return fail(line, what + " " + llvm::Twine(value) + " is out of range [" +
                            llvm::Twine(min) + ", " + llvm::Twine(max) + "]");
    out = value;
    return Error::success();
  }

  StringRef fileName;
};

//===----------------------------------------------------------------------===//
// The resource model
//===----------------------------------------------------------------------===//

Error readResourceModel(const xml::Element &root, const FileErrors &file,
                        std::vector<ResourceModelEntry> &out) {
  if (root.name != "ModelInformation")
    return file.fail(root.line, "expected a <ModelInformation> resource "
                                "model, got <" +
                                    root.name + ">");
  if (Error err = file.checkAttributes(root, {}, {"Version"}))
    return err;
  if (Error err = file.checkNoText(root))
    return err;
  const xml::Element *resources = nullptr;
  for (const xml::Element &child : root.children) {
    if (child.name != "Resources")
      return file.fail(child.line, "unexpected element <" + child.name +
                                       "> in <ModelInformation> (expected "
                                       "<Resources>)");
    if (resources)
      return file.fail(child.line, "second <Resources> (the first is at line " +
                                       llvm::Twine(resources->line) + ")");
    resources = &child;
  }
  if (!resources)
    return file.fail(root.line, "<ModelInformation> has no <Resources>");
  if (Error err = file.checkAttributes(*resources, {}, {}))
    return err;
  if (Error err = file.checkNoText(*resources))
    return err;

  llvm::StringMap<unsigned> seen;
  for (const xml::Element &r : resources->children) {
    // <Resource> with <Cost> children, or the older <resource> that gives
    // the same area figures as attributes (HatScheT's CHStone models, e.g.
    // aes/graph17_RM.xml).
    const bool older = r.name == "resource";
    if (r.name != "Resource" && !older)
      return file.fail(r.line, "unexpected element <" + r.name +
                                   "> in <Resources> (expected <Resource>)");
    static const StringRef kRequired[] = {"name", "latency", "blockingTime",
                                          "limit"};
    static const StringRef kOptional[] = {"physicalDelay", "nDSP", "nLUT",
                                          "nMEM"};
    if (Error err = file.checkAttributes(
            r, kRequired,
            llvm::ArrayRef<StringRef>(kOptional).take_front(older ? 4 : 1)))
      return err;
    if (older)
      for (StringRef key : llvm::ArrayRef<StringRef>(kOptional).drop_front())
        if (const xml::Attribute *area = r.findAttribute(key)) {
          int64_t unused = 0;
          if (Error err = file.parseInt(
                  area->value, area->line,
                  key.str() + " of '" + r.findAttribute("name")->value + "'",
                  0, kMaxFileValue, unused))
            return err;
        }
    if (Error err = file.checkNoText(r))
      return err;
    ResourceModelEntry entry;
    entry.line = r.line;
    entry.name = r.findAttribute("name")->value;
    if (entry.name.empty())
      return file.fail(r.line, "<Resource> has an empty name");
    if (auto [it, fresh] = seen.try_emplace(entry.name, r.line); !fresh)
      return file.fail(r.line, "duplicate resource '" + entry.name +
                                   "' (first at line " +
                                   llvm::Twine(it->second) + ")");
    const xml::Attribute *latency = r.findAttribute("latency");
    const xml::Attribute *blocking = r.findAttribute("blockingTime");
    const xml::Attribute *limit = r.findAttribute("limit");
    if (Error err = file.parseInt(latency->value, latency->line,
                                  "latency of '" + entry.name + "'", 0,
                                  kMaxFileValue, entry.latency))
      return err;
    if (Error err = file.parseInt(blocking->value, blocking->line,
                                  "blockingTime of '" + entry.name + "'", 0,
                                  kMaxFileValue, entry.blockingTime))
      return err;
    if (Error err = file.parseInt(limit->value, limit->line,
                                  "limit of '" + entry.name + "'", -1,
                                  kMaxFileValue, entry.limit))
      return err;
    if (entry.limit == 0)
      return file.fail(limit->line, "limit of '" + entry.name +
                                        "' must be -1 (unlimited) or at "
                                        "least 1, got 0");
    if (const xml::Attribute *delay = r.findAttribute("physicalDelay")) {
      double value = 0;
      if (StringRef(delay->value).trim().getAsDouble(value) || value < 0)
        return file.fail(delay->line, "physicalDelay of '" + entry.name +
                                          "' must be a non-negative number, "
                                          "got '" +
                                          delay->value + "'");
    }
    // <Cost name demand/>: area figures, not needed for scheduling.
    for (const xml::Element &cost : r.children) {
      if (older)
        return file.fail(cost.line, "unexpected element <" + cost.name +
                                        "> in <resource> (its area is given "
                                        "as attributes)");
      if (cost.name != "Cost")
        return file.fail(cost.line, "unexpected element <" + cost.name +
                                        "> in <Resource> (expected <Cost>)");
      if (Error err = file.checkAttributes(cost, {"name", "demand"}, {}))
        return err;
      if (Error err = file.checkNoChildren(cost))
        return err;
      if (Error err = file.checkNoText(cost))
        return err;
    }
    out.push_back(std::move(entry));
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// The graph
//===----------------------------------------------------------------------===//

/// The <data key="..."> children of a node or edge, by key.
Error readData(const xml::Element &e, const FileErrors &file,
               llvm::ArrayRef<StringRef> keys,
               llvm::StringMap<const xml::Element *> &out) {
  if (Error err = file.checkNoText(e))
    return err;
  for (const xml::Element &data : e.children) {
    if (data.name != "data")
      return file.fail(data.line, "unexpected element <" + data.name +
                                      "> in <" + e.name +
                                      "> (expected <data>)");
    if (Error err = file.checkAttributes(data, {"key"}, {}))
      return err;
    if (Error err = file.checkNoChildren(data))
      return err;
    StringRef key = data.findAttribute("key")->value;
    if (!llvm::is_contained(keys, key))
      return file.fail(data.line, "unknown data key '" + key + "' on <" +
                                      e.name + "> (expected " +
                                      llvm::join(keys, ", ") + ")");
    if (auto [it, fresh] = out.try_emplace(key, &data); !fresh)
      return file.fail(data.line, "data key '" + key +
                                      "' given twice (first "
                                      "at line " +
                                      llvm::Twine(it->second->line) + ")");
  }
  return Error::success();
}

Error readGraph(const xml::Element &root, const FileErrors &file,
                std::vector<Node> &nodes, std::vector<Edge> &edges) {
  if (root.name != "graphml")
    return file.fail(root.line,
                     "expected a <graphml> document, got <" + root.name + ">");
  for (const xml::Attribute &attr : root.attributes) {
    StringRef name = attr.name;
    if (name != "xmlns" && !name.starts_with("xmlns:") &&
        name != "xsi:schemaLocation")
      return file.fail(attr.line,
                       "unknown attribute '" + name + "' on <graphml>");
  }
  if (Error err = file.checkNoText(root))
    return err;
  const xml::Element *graph = nullptr;
  for (const xml::Element &child : root.children) {
    if (child.name == "key")
      continue; // A graphML key declaration: types only, not needed.
    if (child.name != "graph")
      return file.fail(child.line, "unexpected element <" + child.name +
                                       "> in <graphml> (expected <graph>)");
    if (graph)
      return file.fail(child.line, "second <graph> (the first is at line " +
                                       llvm::Twine(graph->line) + ")");
    graph = &child;
  }
  if (!graph)
    return file.fail(root.line, "<graphml> has no <graph>");
  if (Error err = file.checkAttributes(*graph, {}, {"id", "edgedefault"}))
    return err;
  if (const xml::Attribute *dir = graph->findAttribute("edgedefault");
      dir && dir->value != "directed")
    return file.fail(dir->line, "edgedefault must be 'directed', got '" +
                                    dir->value + "'");
  if (Error err = file.checkNoText(*graph))
    return err;

  for (const xml::Element &child : graph->children) {
    llvm::StringMap<const xml::Element *> data;
    if (child.name == "node") {
      if (Error err = file.checkAttributes(child, {"id"}, {}))
        return err;
      if (Error err = readData(child, file, {"name", "uses_resource"}, data))
        return err;
      Node node;
      node.line = child.line;
      node.id = child.findAttribute("id")->value;
      auto resource = data.find("uses_resource");
      if (resource == data.end())
        return file.fail(child.line,
                         "node '" + node.id + "' has no 'uses_resource' data");
      node.resource = resource->second->text;
      node.resourceLine = resource->second->line;
      auto name = data.find("name");
      // Names are shown and used as keys: surrounding whitespace (a name
      // that ends in a line break occurs in the origami set) is dropped.
      node.name = name == data.end()
                      ? node.id
                      : StringRef(name->second->text).trim(" \t\n").str();
      if (node.name.empty())
        return file.fail(name->second->line,
                         "node '" + node.id + "' has an empty name");
      nodes.push_back(std::move(node));
      continue;
    }
    if (child.name == "edge") {
      if (Error err = file.checkAttributes(child, {"source", "target"}, {"id"}))
        return err;
      if (Error err =
              readData(child, file, {"delay", "distance", "deptype"}, data))
        return err;
      Edge edge;
      edge.line = child.line;
      edge.source = child.findAttribute("source")->value;
      edge.target = child.findAttribute("target")->value;
      if (auto it = data.find("delay"); it != data.end())
        if (Error err = file.parseInt(it->second->text, it->second->line,
                                      "delay", 0, kMaxFileValue, edge.delay))
          return err;
      if (auto it = data.find("distance"); it != data.end())
        if (Error err =
                file.parseInt(it->second->text, it->second->line, "distance", 0,
                              kMaxFileValue, edge.distance))
          return err;
      if (auto it = data.find("deptype"); it != data.end()) {
        StringRef type = StringRef(it->second->text).trim(" \t\n");
        if (type != "Data" && type != "Precedence")
          return file.fail(it->second->line,
                           "deptype must be 'Data' or 'Precedence', got '" +
                               it->second->text + "'");
      }
      edges.push_back(std::move(edge));
      continue;
    }
    return file.fail(child.line, "unexpected element <" + child.name +
                                     "> in <graph> (expected <node> or "
                                     "<edge>)");
  }
  if (nodes.empty())
    return file.fail(graph->line, "the graph has no nodes");
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

llvm::Expected<ProblemFile>
buildProblem(StringRef name, const FileErrors &graphFile,
             const std::vector<ResourceModelEntry> &model,
             const std::vector<Node> &nodes, const std::vector<Edge> &edges) {
  struct Lowered {
    const ResourceModelEntry *entry;
    std::optional<rrt::Use> use;
  };
  rrt::ResourceLayout layout;
  llvm::StringMap<Lowered> resources;
  for (const ResourceModelEntry &entry : model) {
    Lowered lowered{&entry, std::nullopt};
    if (entry.blockingTime > 0 && entry.limit == 1)
      lowered.use = rrt::Use::bit(layout.addBit(entry.name),
                                  unsigned(entry.blockingTime));
    else if (entry.blockingTime > 0 && entry.limit > 1)
      lowered.use =
          rrt::Use::pool(layout.addPool(entry.name, unsigned(entry.limit)),
                         unsigned(entry.blockingTime), /*amount=*/1);
    resources.try_emplace(entry.name, lowered);
  }

  ProblemFile file{name.str(), sched::Problem(std::move(layout))};
  sched::Problem &problem = file.problem;
  llvm::StringMap<sched::OpId> byId;
  llvm::StringMap<unsigned> nameLine;
  for (const Node &node : nodes) {
    auto it = resources.find(node.resource);
    if (it == resources.end())
      return graphFile.fail(node.resourceLine,
                            "node '" + node.id + "' uses resource '" +
                                node.resource +
                                "', which the resource model does not define");
    if (auto [prev, fresh] = byId.try_emplace(node.id, problem.getNumOps());
        !fresh)
      return graphFile.fail(
          node.line, "duplicate node id '" + node.id + "' (first at line " +
                         llvm::Twine(nodes[prev->second].line) + ")");
    if (auto [prev, fresh] = nameLine.try_emplace(node.name, node.line); !fresh)
      return graphFile.fail(node.line, "duplicate node name '" + node.name +
                                           "' (first at line " +
                                           llvm::Twine(prev->second) + ")");
    sched::Operation op;
    op.name = node.name;
    op.opClass = node.resource;
    op.latency = it->second.entry->latency;
    if (it->second.use)
      op.uses.push_back(*it->second.use);
    problem.addOp(std::move(op));
  }
  for (const Edge &edge : edges) {
    auto src = byId.find(edge.source);
    if (src == byId.end())
      return graphFile.fail(edge.line,
                            "edge source '" + edge.source + "' is not a node");
    auto dst = byId.find(edge.target);
    if (dst == byId.end())
      return graphFile.fail(edge.line,
                            "edge target '" + edge.target + "' is not a node");
    sched::Dependence dep;
    dep.src = src->second;
    dep.dst = dst->second;
    dep.latency = *problem.getOp(dep.src).latency + edge.delay;
    dep.distance = unsigned(edge.distance);
    problem.addDependence(dep);
  }
  problem.getGroups().freeze();
  problem.finalize();
  return file;
}

} // namespace

llvm::Expected<ProblemFile> tilepipe::io::readHatScheT(StringRef graphText,
                                                       StringRef graphName,
                                                       StringRef resourceText,
                                                       StringRef resourceName) {
  StringRef shownGraph = graphName.empty() ? StringRef("<graph>") : graphName;
  StringRef shownModel =
      resourceName.empty() ? StringRef("<resources>") : resourceName;
  FileErrors modelFile(shownModel), graphFile(shownGraph);

  llvm::Expected<xml::Element> modelRoot = xml::parse(resourceText, shownModel);
  if (!modelRoot)
    return modelRoot.takeError();
  std::vector<ResourceModelEntry> model;
  if (Error err = readResourceModel(*modelRoot, modelFile, model))
    return err;

  llvm::Expected<xml::Element> graphRoot = xml::parse(graphText, shownGraph);
  if (!graphRoot)
    return graphRoot.takeError();
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  if (Error err = readGraph(*graphRoot, graphFile, nodes, edges))
    return err;

  StringRef name = llvm::sys::path::filename(graphName);
  name.consume_back(".graphml");
  return buildProblem(name, graphFile, model, nodes, edges);
}

llvm::Expected<ProblemFile>
tilepipe::io::readHatScheTFiles(StringRef graphPath, StringRef resourcePath) {
  auto read = [](StringRef path)
      -> llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!buffer)
      return makeReadError(path, 0, 0,
                           "cannot read file: " + buffer.getError().message());
    return std::move(*buffer);
  };
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> model =
      read(resourcePath);
  if (!model)
    return model.takeError();
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> graph = read(graphPath);
  if (!graph)
    return graph.takeError();
  return readHatScheT((*graph)->getBuffer(), graphPath, (*model)->getBuffer(),
                      resourcePath);
}
