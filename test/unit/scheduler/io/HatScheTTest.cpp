//===- HatScheTTest.cpp - the HatScheT graphML reader ---------------------===//

#include "scheduler/io/HatScheT.h"

#include "gtest/gtest.h"

#include <string>

using namespace tilepipe;
using namespace tilepipe::io;
using tilepipe::sched::OpId;

namespace {

// Shaped like the MachSuite resource models: a header, Cost children.
const char *kModel =
    R"(<?xml version="1.0" encoding="UTF-8"?><ModelInformation Version="1.0">
  <Resources>
    <Resource blockingTime="0" latency="0" limit="-1" name="virtual" physicalDelay="0.0">
      <Cost demand="0" name="LUT"/>
    </Resource>
    <Resource blockingTime="1" latency="1" limit="-1" name="const" physicalDelay="0.0"/>
    <Resource blockingTime="1" latency="2" limit="2" name="mem_read" physicalDelay="0.0">
      <Cost demand="1" name="MEM"/>
    </Resource>
    <Resource blockingTime="1" latency="1" limit="1" name="mem_write" physicalDelay="0.5"/>
    <Resource blockingTime="3" latency="4" limit="1" name="div"/>
    <Resource blockingTime="0" latency="5" limit="1" name="free_mul"/>
    <Resource blockingTime="1" latency="1" limit="-1" name="Constant-0.5&#xA;_0"/>
  </Resources>
</ModelInformation>
)";

// Shaped like the MachSuite graphs: a default namespace, deptype on edges.
const char *kGraph =
    R"(<?xml version="1.0" encoding="UTF-8"?><graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="delay" for="edge" attr.name="delay" attr.type="int"/>
  <graph edgedefault="directed" id="">
    <node id="10">
      <data key="name">load</data>
      <data key="uses_resource">mem_read</data>
    </node>
    <node id="11">
      <data key="uses_resource">virtual</data>
    </node>
    <node id="12">
      <data key="name">store</data>
      <data key="uses_resource">mem_write</data>
    </node>
    <node id="13">
      <data key="name">d</data>
      <data key="uses_resource">div</data>
    </node>
    <node id="14">
      <data key="name">m</data>
      <data key="uses_resource">free_mul</data>
    </node>
    <node id="15">
      <data key="name">Constant_-0.5
</data>
      <data key="uses_resource">Constant-0.5
_0</data>
    </node>
    <edge id="e" source="10" target="11">
      <data key="delay">0</data>
      <data key="distance">0</data>
      <data key="deptype">Data</data>
    </edge>
    <edge id="e" source="11" target="12">
      <data key="delay">1</data>
      <data key="distance">0</data>
      <data key="deptype">Precedence</data>
    </edge>
    <edge source="12" target="10">
      <data key="distance">2</data>
    </edge>
    <edge source="13" target="13">
      <data key="delay">0</data>
      <data key="distance">1</data>
    </edge>
  </graph>
</graphml>
)";

std::optional<ProblemFile>
hatReadOK(llvm::StringRef graph, llvm::StringRef model,
          llvm::StringRef graphName = "dir/g.graphml") {
  llvm::Expected<ProblemFile> file =
      readHatScheT(graph, graphName, model, "dir/g_RM.xml");
  if (!file) {
    ADD_FAILURE() << llvm::toString(file.takeError());
    return std::nullopt;
  }
  return std::move(*file);
}

std::string hatReadError(llvm::StringRef graph,
                         llvm::StringRef model = kModel) {
  llvm::Expected<ProblemFile> file =
      readHatScheT(graph, "g.graphml", model, "g_RM.xml");
  if (file)
    return "(read)";
  return llvm::toString(file.takeError());
}

std::string modelError(llvm::StringRef model) {
  return hatReadError(kGraph, model);
}

/// A graph file with the given body inside <graph>; line 3 is the body's
/// first line.
std::string graph(llvm::StringRef body) {
  return ("<graphml>\n<graph>\n" + body + "\n</graph>\n</graphml>\n").str();
}

/// A resource model with the given <Resource> lines; line 3 is the first.
std::string model(llvm::StringRef resources) {
  return ("<ModelInformation>\n<Resources>\n" + resources +
          "\n</Resources>\n</ModelInformation>\n")
      .str();
}

const char *kNode = R"(<node id="1"><data key="uses_resource">r</data></node>)";
const char *kModelR =
    R"(<Resource name="r" latency="2" blockingTime="1" limit="1"/>)";

TEST(HatScheT, ReadsAnInstance) {
  std::optional<ProblemFile> file =
      hatReadOK(kGraph, kModel, "dir/graph3.200MHz.graphml");
  ASSERT_TRUE(file);
  EXPECT_EQ(file->name, "graph3.200MHz");
  const sched::Problem &p = file->problem;

  // Limited resources only, in model order: limit 1 -> bit, 2 -> pool.
  const rrt::ResourceLayout &layout = p.getLayout();
  ASSERT_EQ(layout.numPools(), 1u);
  EXPECT_EQ(layout.poolNames[0], "mem_read");
  EXPECT_EQ(layout.poolCaps[0], 2u);
  ASSERT_EQ(layout.numBits(), 2u);
  EXPECT_EQ(layout.bitNames[0], "mem_write");
  EXPECT_EQ(layout.bitNames[1], "div");

  ASSERT_EQ(p.getNumOps(), 6u);
  const sched::Operation &load = p.getOp(0);
  EXPECT_EQ(load.name, "load");
  EXPECT_EQ(load.opClass, "mem_read");
  EXPECT_EQ(load.latency, 2);
  ASSERT_EQ(load.uses.size(), 1u);
  EXPECT_EQ(load.uses[0].kind, rrt::Use::Kind::Pool);
  EXPECT_EQ(load.uses[0].duration, 1u);
  EXPECT_EQ(load.uses[0].amount, 1u);

  EXPECT_EQ(p.getOp(1).name, "11"); // No name: the node id.
  EXPECT_EQ(p.getOp(1).latency, 0);
  EXPECT_TRUE(p.getOp(1).uses.empty());

  ASSERT_EQ(p.getOp(2).uses.size(), 1u);
  EXPECT_EQ(p.getOp(2).uses[0].kind, rrt::Use::Kind::Bit);
  EXPECT_EQ(p.getOp(2).uses[0].index, 0u);

  const sched::Operation &d = p.getOp(3);
  ASSERT_EQ(d.uses.size(), 1u);
  EXPECT_EQ(d.uses[0].index, 1u);
  EXPECT_EQ(d.uses[0].duration, 3u); // blockingTime.

  EXPECT_EQ(p.getOp(4).latency, 5);
  EXPECT_TRUE(p.getOp(4).uses.empty()); // blockingTime 0: no footprint.

  // A name ending in a line break is trimmed; the resource name keeps its
  // inner line break and matches the model's &#xA;.
  EXPECT_EQ(p.getOp(5).name, "Constant_-0.5");
  EXPECT_EQ(p.getOp(5).opClass, "Constant-0.5\n_0");

  // latency(resource of src) + delay; absent delay and distance are 0.
  llvm::ArrayRef<sched::Dependence> deps = p.getDependences();
  ASSERT_EQ(deps.size(), 4u);
  EXPECT_EQ(deps[0].src, 0u);
  EXPECT_EQ(deps[0].dst, 1u);
  EXPECT_EQ(deps[0].latency, 2);
  EXPECT_EQ(deps[0].distance, 0u);
  EXPECT_EQ(deps[1].latency, 1); // virtual (0) + delay 1.
  EXPECT_EQ(deps[2].src, 2u);
  EXPECT_EQ(deps[2].dst, 0u);
  EXPECT_EQ(deps[2].latency, 1);
  EXPECT_EQ(deps[2].distance, 2u);
  EXPECT_EQ(deps[3].src, 3u);
  EXPECT_EQ(deps[3].dst, 3u);
  EXPECT_EQ(deps[3].latency, 4);
  EXPECT_EQ(deps[3].distance, 1u);

  sched::DiagnosticList diags;
  EXPECT_TRUE(p.check(diags));
  rrt::Bounds bounds = p.computeBounds();
  EXPECT_EQ(bounds.resMII, 3u); // div holds its bit 3 cycles.
  EXPECT_EQ(bounds.recMII, 4u); // d -> d, latency 4, distance 1.
}

TEST(HatScheT, OrigamiShape) {
  // No namespace, self-closing resources, no <Cost>, standalone header.
  std::optional<ProblemFile> file = hatReadOK(
      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\" ?>\n"
      "<graphml>\n\n  <graph edgedefault=\"directed\" id=\"\">\n" +
          std::string(kNode) + "\n  </graph>\n</graphml>",
      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\" ?>\n"
      "<ModelInformation>\n\n  <Resources>\n    " +
          std::string(kModelR) + "\n  </Resources>\n</ModelInformation>\n",
      "fir.graphml");
  ASSERT_TRUE(file);
  EXPECT_EQ(file->name, "fir");
  EXPECT_EQ(file->problem.getNumOps(), 1u);
  EXPECT_EQ(file->problem.getOp(0).name, "1");
}

TEST(HatScheT, OlderResourceElement) {
  // CHStone's older models: <resource> with the area as attributes. The
  // same loop reads the same with either form.
  std::optional<ProblemFile> newer = hatReadOK(graph(kNode), model(kModelR));
  std::optional<ProblemFile> older = hatReadOK(
      graph(kNode),
      model(R"(<resource blockingTime="1" latency="2" limit="1" nDSP="0" )"
            R"(nLUT="64" nMEM="1" name="r" physicalDelay="0.0"/>)"));
  ASSERT_TRUE(newer && older);
  ASSERT_EQ(older->problem.getNumOps(), 1u);
  EXPECT_EQ(older->problem.getOp(0).latency, newer->problem.getOp(0).latency);
  EXPECT_EQ(older->problem.getOp(0).latency, std::optional<int64_t>(2));
  EXPECT_EQ(older->problem.computeBounds().mii,
            newer->problem.computeBounds().mii);
}

TEST(HatScheT, XMLErrorsCarryFileLineAndColumn) {
  EXPECT_EQ(hatReadError("<graphml>\n<graph>\n</graphml>"),
            "g.graphml:3:1: end tag </graphml> does not match <graph> opened "
            "at line 2");
  EXPECT_EQ(modelError("<ModelInformation>\n  <Resources>"),
            "g_RM.xml:2:14: unexpected end of file: <Resources> opened at "
            "line 2 is not closed");
}

TEST(HatScheT, ResourceModelErrors) {
  EXPECT_EQ(modelError("<Model/>"),
            "g_RM.xml:1: expected a <ModelInformation> resource model, got "
            "<Model>");
  EXPECT_EQ(modelError("<ModelInformation version=\"1\"/>"),
            "g_RM.xml:1: unknown attribute 'version' on <ModelInformation> "
            "(expected Version)");
  EXPECT_EQ(modelError("<ModelInformation/>"),
            "g_RM.xml:1: <ModelInformation> has no <Resources>");
  EXPECT_EQ(modelError("<ModelInformation>x<Resources/></ModelInformation>"),
            "g_RM.xml:1: unexpected text inside <ModelInformation>");
  EXPECT_EQ(modelError("<ModelInformation>\n<Resources/>\n<Resources/>\n"
                       "</ModelInformation>"),
            "g_RM.xml:3: second <Resources> (the first is at line 2)");
  EXPECT_EQ(modelError("<ModelInformation>\n<Costs/>\n</ModelInformation>"),
            "g_RM.xml:2: unexpected element <Costs> in <ModelInformation> "
            "(expected <Resources>)");
  EXPECT_EQ(modelError("<ModelInformation>\n<Resources n=\"1\"/>\n"
                       "</ModelInformation>"),
            "g_RM.xml:2: unknown attribute 'n' on <Resources>");
  EXPECT_EQ(modelError(model("<Resourse/>")),
            "g_RM.xml:3: unexpected element <Resourse> in <Resources> "
            "(expected <Resource>)");
  // The older form: area as attributes, no <Cost> children.
  EXPECT_EQ(modelError(model(R"(<resource name="r" latency="1" limit="1"
                                  blockingTime="1" nDSP="x"/>)")),
            "g_RM.xml:4: nDSP of 'r' must be an integer, got 'x'");
  EXPECT_EQ(modelError(model(R"(<resource name="r" latency="1" limit="1"
                                  blockingTime="1"><Cost/></resource>)")),
            "g_RM.xml:4: unexpected element <Cost> in <resource> (its area "
            "is given as attributes)");
  EXPECT_EQ(modelError(model(R"(<resource name="r" latency="1" limit="1"
                                  blockingTime="1" area="3"/>)")),
            "g_RM.xml:4: unknown attribute 'area' on <resource> (expected "
            "name, latency, blockingTime, limit, physicalDelay, nDSP, nLUT, "
            "nMEM)");
  EXPECT_EQ(modelError(model(R"(<Resource name="r" latency="1" limit="1"/>)")),
            "g_RM.xml:3: <Resource> needs attribute 'blockingTime'");
  EXPECT_EQ(modelError(model(R"(<Resource name="r" latency="1" limit="1"
                                  blockingTime="1" area="3"/>)")),
            "g_RM.xml:4: unknown attribute 'area' on <Resource> (expected "
            "name, latency, blockingTime, limit, physicalDelay)");
  EXPECT_EQ(
      modelError(model(
          R"(<Resource name="" latency="1" limit="1" blockingTime="1"/>)")),
      "g_RM.xml:3: <Resource> has an empty name");
  EXPECT_EQ(modelError(model(
                R"(<Resource name="r" latency="1" limit="1" blockingTime="1"/>
<Resource name="r" latency="1" limit="1" blockingTime="1"/>)")),
            "g_RM.xml:4: duplicate resource 'r' (first at line 3)");
  EXPECT_EQ(
      modelError(model(
          R"(<Resource name="r" latency="x" limit="1" blockingTime="1"/>)")),
      "g_RM.xml:3: latency of 'r' must be an integer, got 'x'");
  EXPECT_EQ(
      modelError(model(
          R"(<Resource name="r" latency="1.0" limit="1" blockingTime="1"/>)")),
      "g_RM.xml:3: latency of 'r' must be an integer, got '1.0'");
  EXPECT_EQ(
      modelError(model(
          R"(<Resource name="r" latency="-1" limit="1" blockingTime="1"/>)")),
      "g_RM.xml:3: latency of 'r' -1 is out of range [0, 1048576]");
  EXPECT_EQ(
      modelError(model(
          R"(<Resource name="r" latency="1" limit="1" blockingTime="-1"/>)")),
      "g_RM.xml:3: blockingTime of 'r' -1 is out of range [0, 1048576]");
  EXPECT_EQ(
      modelError(model(
          R"(<Resource name="r" latency="1" limit="0" blockingTime="1"/>)")),
      "g_RM.xml:3: limit of 'r' must be -1 (unlimited) or at least 1, "
      "got 0");
  EXPECT_EQ(
      modelError(model(
          R"(<Resource name="r" latency="1" limit="-5" blockingTime="1"/>)")),
      "g_RM.xml:3: limit of 'r' -5 is out of range [-1, 1048576]");
  EXPECT_EQ(modelError(model(
                R"(<Resource name="r" latency="1" limit="1" blockingTime="1"
                                  physicalDelay="fast"/>)")),
            "g_RM.xml:4: physicalDelay of 'r' must be a non-negative number, "
            "got 'fast'");
  EXPECT_EQ(modelError(model(
                R"(<Resource name="r" latency="1" limit="1" blockingTime="1">
<Area/></Resource>)")),
            "g_RM.xml:4: unexpected element <Area> in <Resource> (expected "
            "<Cost>)");
  EXPECT_EQ(modelError(model(
                R"(<Resource name="r" latency="1" limit="1" blockingTime="1">
<Cost name="LUT"/></Resource>)")),
            "g_RM.xml:4: <Cost> needs attribute 'demand'");
  EXPECT_EQ(modelError(model(
                R"(<Resource name="r" latency="1" limit="1" blockingTime="1">
1</Resource>)")),
            "g_RM.xml:3: unexpected text inside <Resource>");
}

TEST(HatScheT, GraphErrors) {
  auto err = [](llvm::StringRef body) {
    return hatReadError(graph(body), model(kModelR));
  };
  EXPECT_EQ(hatReadError("<graph/>", model(kModelR)),
            "g.graphml:1: expected a <graphml> document, got <graph>");
  EXPECT_EQ(hatReadError("<graphml version=\"2\"/>", model(kModelR)),
            "g.graphml:1: unknown attribute 'version' on <graphml>");
  EXPECT_EQ(hatReadError("<graphml/>", model(kModelR)),
            "g.graphml:1: <graphml> has no <graph>");
  EXPECT_EQ(
      hatReadError("<graphml>\n<graph/>\n<graph/>\n</graphml>", model(kModelR)),
      "g.graphml:3: second <graph> (the first is at line 2)");
  EXPECT_EQ(
      hatReadError("<graphml>\n<hypergraph/>\n</graphml>", model(kModelR)),
      "g.graphml:2: unexpected element <hypergraph> in <graphml> "
      "(expected <graph>)");
  EXPECT_EQ(hatReadError("<graphml>\n<graph edgedefault=\"undirected\"/>\n"
                         "</graphml>",
                         model(kModelR)),
            "g.graphml:2: edgedefault must be 'directed', got 'undirected'");
  EXPECT_EQ(hatReadError("<graphml>\n<graph kind=\"x\"/>\n</graphml>",
                         model(kModelR)),
            "g.graphml:2: unknown attribute 'kind' on <graph> (expected id, "
            "edgedefault)");
  EXPECT_EQ(err(""), "g.graphml:2: the graph has no nodes");
  EXPECT_EQ(err("text"), "g.graphml:2: unexpected text inside <graph>");
  EXPECT_EQ(err("<hyperedge/>"),
            "g.graphml:3: unexpected element <hyperedge> in <graph> (expected "
            "<node> or <edge>)");
  EXPECT_EQ(err("<node/>"), "g.graphml:3: <node> needs attribute 'id'");
  EXPECT_EQ(err("<node id=\"1\" label=\"x\"/>"),
            "g.graphml:3: unknown attribute 'label' on <node> (expected id)");
  EXPECT_EQ(err("<node id=\"1\"/>"),
            "g.graphml:3: node '1' has no 'uses_resource' data");
  EXPECT_EQ(err("<node id=\"1\">\n<data key=\"latency\">3</data>\n</node>"),
            "g.graphml:4: unknown data key 'latency' on <node> (expected name, "
            "uses_resource)");
  EXPECT_EQ(err("<node id=\"1\">\n<data key=\"name\">a</data>\n"
                "<data key=\"name\">b</data>\n</node>"),
            "g.graphml:5: data key 'name' given twice (first at line 4)");
  EXPECT_EQ(err("<node id=\"1\">\n<label/>\n</node>"),
            "g.graphml:4: unexpected element <label> in <node> (expected "
            "<data>)");
  EXPECT_EQ(err("<node id=\"1\">\n<data>r</data>\n</node>"),
            "g.graphml:4: <data> needs attribute 'key'");
  EXPECT_EQ(err("<node id=\"1\">\n<data key=\"name\"><b/></data>\n</node>"),
            "g.graphml:4: unexpected element <b> inside <data>");
  EXPECT_EQ(err("<node id=\"1\">\n<data key=\"name\"> </data>\n"
                "<data key=\"uses_resource\">r</data></node>"),
            "g.graphml:4: node '1' has an empty name");
  EXPECT_EQ(err("<node id=\"1\">\n<data key=\"uses_resource\">alu</data>\n"
                "</node>"),
            "g.graphml:4: node '1' uses resource 'alu', which the resource "
            "model does not define");
  EXPECT_EQ(err(std::string(kNode) + "\n" + kNode),
            "g.graphml:4: duplicate node id '1' (first at line 3)");
  EXPECT_EQ(err("<node id=\"1\"><data key=\"name\">a</data>"
                "<data key=\"uses_resource\">r</data></node>\n"
                "<node id=\"2\"><data key=\"name\">a</data>"
                "<data key=\"uses_resource\">r</data></node>"),
            "g.graphml:4: duplicate node name 'a' (first at line 3)");
}

TEST(HatScheT, EdgeErrors) {
  auto err = [](llvm::StringRef edge) {
    return hatReadError(graph(std::string(kNode) + "\n" + edge.str()),
                        model(kModelR));
  };
  EXPECT_EQ(err("<edge source=\"1\"/>"),
            "g.graphml:4: <edge> needs attribute 'target'");
  EXPECT_EQ(err("<edge source=\"1\" target=\"1\" weight=\"2\"/>"),
            "g.graphml:4: unknown attribute 'weight' on <edge> (expected "
            "source, target, id)");
  EXPECT_EQ(err("<edge source=\"9\" target=\"1\"/>"),
            "g.graphml:4: edge source '9' is not a node");
  EXPECT_EQ(err("<edge source=\"1\" target=\"9\"/>"),
            "g.graphml:4: edge target '9' is not a node");
  EXPECT_EQ(err("<edge source=\"1\" target=\"1\">\n"
                "<data key=\"latency\">1</data></edge>"),
            "g.graphml:5: unknown data key 'latency' on <edge> (expected "
            "delay, distance, deptype)");
  EXPECT_EQ(err("<edge source=\"1\" target=\"1\">\n"
                "<data key=\"delay\">one</data></edge>"),
            "g.graphml:5: delay must be an integer, got 'one'");
  EXPECT_EQ(err("<edge source=\"1\" target=\"1\">\n"
                "<data key=\"delay\">-1</data></edge>"),
            "g.graphml:5: delay -1 is out of range [0, 1048576]");
  EXPECT_EQ(err("<edge source=\"1\" target=\"1\">\n"
                "<data key=\"distance\">99999999999999999999</data></edge>"),
            "g.graphml:5: distance must be an integer, got "
            "'99999999999999999999'");
  EXPECT_EQ(err("<edge source=\"1\" target=\"1\">\n"
                "<data key=\"distance\"></data></edge>"),
            "g.graphml:5: distance must be an integer, got ''");
  EXPECT_EQ(err("<edge source=\"1\" target=\"1\">\n"
                "<data key=\"deptype\">Anti</data></edge>"),
            "g.graphml:5: deptype must be 'Data' or 'Precedence', got 'Anti'");
  // Whitespace around a number is fine.
  EXPECT_EQ(err("<edge source=\"1\" target=\"1\">\n"
                "<data key=\"distance\">\n  1\n</data></edge>"),
            "(read)");
}

TEST(HatScheT, FileErrors) {
  llvm::Expected<ProblemFile> file =
      readHatScheTFiles("/nonexistent/g.graphml", "/nonexistent/g_RM.xml");
  ASSERT_FALSE(file);
  EXPECT_EQ(llvm::toString(file.takeError()),
            "/nonexistent/g_RM.xml: cannot read file: No such file or "
            "directory");
}

} // namespace
