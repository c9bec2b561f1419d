//===- DocumentTest.cpp - several pictures in one file
//---------------------===//

#include "report/Document.h"
#include "report/PlanSVG.h"

#include "gtest/gtest.h"
#include <pugixml.hpp>

#include <random>
#include <string>

using namespace tilepipe::report;

namespace {

std::string render(llvm::StringRef title, const std::vector<Section> &sections,
                   DocumentFormat format) {
  std::string out;
  llvm::raw_string_ostream os(out);
  writeDocument(os, title, sections, format);
  return out;
}

std::string planSVG(const std::string &title) {
  PlanPicture picture;
  picture.title = title;
  picture.agents = {{"load", {"%1 = tileas.tma_load (stage 0)"}},
                    {"mma", {"%2 = tileas.umma (stage 1)"}}};
  picture.pipes = {{0, 1, "pipe 0: smem 16384 B x4", false}};
  std::string out;
  llvm::raw_string_ostream os(out);
  writePlanSVG(os, picture);
  return out;
}

size_t count(llvm::StringRef haystack, llvm::StringRef needle) {
  return haystack.count(needle);
}

TEST(Document, IdsAreUniquePerPicture) {
  Section a{"loop a", {}, {planSVG("a")}}, b{"loop b", {}, {planSVG("b")}};
  for (DocumentFormat format : {DocumentFormat::HTML, DocumentFormat::SVG}) {
    std::string doc = render("t", {a, b}, format);
    EXPECT_EQ(count(doc, "id=\"arrow\""), 0u);
    EXPECT_EQ(count(doc, "url(#arrow)"), 0u);
    EXPECT_EQ(count(doc, "id=\"arrow-p0\""), 1u);
    EXPECT_EQ(count(doc, "id=\"arrow-p1\""), 1u);
    // Every reference follows its own picture's rename.
    EXPECT_EQ(count(doc, "url(#arrow-p0)"), count(a.svgs[0], "url(#arrow)"));
    EXPECT_EQ(count(doc, "url(#arrow-p1)"), count(b.svgs[0], "url(#arrow)"));
  }
}

TEST(Document, HrefReferencesAreRenamed) {
  Section s{"h",
            {},
            {"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" "
             "height=\"10\"><defs><g id=\"m\"/></defs><use "
             "href=\"#m\"/></svg>\n"}};
  std::string doc = render("t", {s}, DocumentFormat::SVG);
  EXPECT_NE(doc.find("<g id=\"m-p0\"/>"), std::string::npos) << doc;
  EXPECT_NE(doc.find("href=\"#m-p0\""), std::string::npos) << doc;
}

TEST(Document, StackedHeightsAddUp) {
  auto box = [](int w, int h) {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
           std::to_string(w) + "\" height=\"" + std::to_string(h) +
           "\"></svg>\n";
  };
  std::vector<Section> sections = {{"one", {"n1", "n2"}, {box(100, 200)}},
                                   {"two", {}, {box(900, 50), box(10, 70)}}};
  std::string doc = render("t", sections, DocumentFormat::SVG);
  pugi::xml_document xml;
  ASSERT_TRUE(xml.load_string(doc.c_str())) << doc;
  pugi::xml_node root = xml.child("svg");
  // Margins 20 + 20, title 30, headings 30 each, notes 18 each, pictures
  // with a 16 gap each.
  EXPECT_EQ(root.attribute("height").as_int(),
            20 + 30 + 30 + 2 * 18 + 200 + 16 + 30 + 50 + 16 + 70 + 16 + 20);
  EXPECT_EQ(root.attribute("width").as_int(), 940);
  // The nested pictures in order, each below the previous one's bottom.
  int lastBottom = 0;
  unsigned nested = 0;
  for (pugi::xml_node child : root.children("svg")) {
    int y = child.attribute("y").as_int();
    EXPECT_GE(y, lastBottom);
    lastBottom = y + child.attribute("height").as_int();
    ++nested;
  }
  EXPECT_EQ(nested, 3u);
  EXPECT_LE(lastBottom, root.attribute("height").as_int());
}

// Any title, heading or note text: both formats stay well-formed XML
// (the HTML is XHTML-clean apart from the doctype) with the text intact.
TEST(Document, WellFormedForAnyText) {
  std::mt19937 rng(7);
  const std::string alphabet = "ab<>&\"'; \t\x01\x1f{}#";
  auto text = [&] {
    std::string s;
    for (int i = 0, n = int(rng() % 12); i < n; ++i)
      s += alphabet[rng() % alphabet.size()];
    return s;
  };
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Section> sections(rng() % 4);
    for (Section &s : sections) {
      s.heading = text();
      for (int i = 0, n = int(rng() % 3); i < n; ++i)
        s.notes.push_back(text());
      for (int i = 0, n = int(rng() % 3); i < n; ++i)
        s.svgs.push_back(planSVG(text()));
    }
    std::string title = text();
    std::string svg = render(title, sections, DocumentFormat::SVG);
    pugi::xml_document xml;
    ASSERT_TRUE(xml.load_string(svg.c_str())) << svg;
    std::string html = render(title, sections, DocumentFormat::HTML);
    std::string body = html.substr(html.find("<html"));
    ASSERT_TRUE(xml.load_string(body.c_str(),
                                pugi::parse_default | pugi::parse_ws_pcdata))
        << html;
    std::string shown;
    for (char c : title)
      if (static_cast<unsigned char>(c) >= 0x20 || c == '\t')
        shown += c;
    EXPECT_EQ(xml.child("html").child("head").child_value("title"), shown);
  }
}

} // namespace
