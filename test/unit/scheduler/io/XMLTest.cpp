//===- XMLTest.cpp - the small XML reader ---------------------------------===//

#include "scheduler/io/XML.h"

#include "gtest/gtest.h"

#include <string>

using namespace tilepipe::io;

namespace {

xml::Element parseOK(llvm::StringRef text) {
  llvm::Expected<xml::Element> root = xml::parse(text, "t.xml");
  if (!root) {
    ADD_FAILURE() << llvm::toString(root.takeError());
    return {};
  }
  return std::move(*root);
}

std::string parseError(llvm::StringRef text) {
  llvm::Expected<xml::Element> root = xml::parse(text, "t.xml");
  if (root)
    return "(parsed)";
  return llvm::toString(root.takeError());
}

TEST(XML, ElementsAttributesAndText) {
  xml::Element root = parseOK("<?xml version=\"1.0\" encoding=\"UTF-8\" "
                              "standalone=\"no\" ?>\n"
                              "<a x=\"1\" y='two'>\n"
                              "  <b>text</b>\n"
                              "  <c z=\"3\"/>\n"
                              "</a>\n");
  EXPECT_EQ(root.name, "a");
  EXPECT_EQ(root.line, 2u);
  ASSERT_EQ(root.attributes.size(), 2u);
  EXPECT_EQ(root.attributes[0].name, "x");
  EXPECT_EQ(root.attributes[0].value, "1");
  ASSERT_NE(root.findAttribute("y"), nullptr);
  EXPECT_EQ(root.findAttribute("y")->value, "two");
  EXPECT_EQ(root.findAttribute("nope"), nullptr);
  ASSERT_EQ(root.children.size(), 2u);
  EXPECT_EQ(root.children[0].name, "b");
  EXPECT_EQ(root.children[0].text, "text");
  EXPECT_EQ(root.children[0].line, 3u);
  EXPECT_EQ(root.children[1].name, "c");
  EXPECT_EQ(root.children[1].line, 4u);
  EXPECT_EQ(root.children[1].findAttribute("z")->line, 4u);
  EXPECT_TRUE(root.children[1].children.empty());
  EXPECT_TRUE(root.hasOnlyBlankText());
  EXPECT_FALSE(root.children[0].hasOnlyBlankText());
}

TEST(XML, NoDeclarationNamespacesAndPrefixes) {
  xml::Element root = parseOK(
      "<g:graphml xmlns=\"http://x\" xmlns:g=\"http://y\"><g:n/></g:graphml>");
  EXPECT_EQ(root.name, "g:graphml");
  EXPECT_EQ(root.findAttribute("xmlns:g")->value, "http://y");
  EXPECT_EQ(root.children[0].name, "g:n");
}

TEST(XML, Entities) {
  xml::Element root =
      parseOK("<a v=\"&lt;&gt;&amp;&quot;&apos;\">&lt;x&gt; &amp; "
              "&quot;y&quot; &apos;</a>");
  EXPECT_EQ(root.findAttribute("v")->value, "<>&\"'");
  EXPECT_EQ(root.text, "<x> & \"y\" '");
}

TEST(XML, CharacterReferences) {
  xml::Element root =
      parseOK("<a v=\"a&#xA;b&#10;c&#65;\">&#x20AC;&#x1F600;</a>");
  EXPECT_EQ(root.findAttribute("v")->value, "a\nb\ncA");
  EXPECT_EQ(root.text, "\xE2\x82\xAC\xF0\x9F\x98\x80");
}

TEST(XML, AttributeWhitespaceIsNormalised) {
  // A literal line break in a value reads as a space; a reference keeps it.
  xml::Element root = parseOK("<a v=\"x\ny\tz\" w=\"x&#xA;y\"/>");
  EXPECT_EQ(root.findAttribute("v")->value, "x y z");
  EXPECT_EQ(root.findAttribute("w")->value, "x\ny");
}

TEST(XML, TextIsKeptVerbatim) {
  xml::Element root = parseOK("<a> x\n y </a>");
  EXPECT_EQ(root.text, " x\n y ");
}

TEST(XML, CommentsCDATAAndProcessingInstructions) {
  xml::Element root = parseOK("<!-- before -->\n<?style x?>\n"
                              "<a>1<!-- in - side -->2<![CDATA[<&>]]>3"
                              "<?pi data?>4</a>\n<!-- after -->\n");
  EXPECT_EQ(root.text, "12<&>34");
  EXPECT_TRUE(root.children.empty());
}

TEST(XML, MixedContentCollectsOwnText) {
  xml::Element root = parseOK("<a>x<b>inner</b>y</a>");
  EXPECT_EQ(root.text, "xy");
  EXPECT_EQ(root.children[0].text, "inner");
}

TEST(XML, LineEndsAreNormalised) {
  xml::Element root = parseOK("<a>\r\n<b/>\r<c/>\r\n</a>");
  EXPECT_EQ(root.children[0].line, 2u);
  EXPECT_EQ(root.children[1].line, 3u);
  EXPECT_EQ(root.text, "\n\n\n");
}

TEST(XML, ByteOrderMark) { EXPECT_EQ(parseOK("\xEF\xBB\xBF<a/>").name, "a"); }

TEST(XML, SpacesInsideTags) {
  xml::Element root = parseOK("<a  x = \"1\"\n  y='2' ></a >");
  EXPECT_EQ(root.attributes.size(), 2u);
}

TEST(XML, DeepButBoundedNesting) {
  std::string ok, tooDeep;
  for (unsigned i = 0; i < xml::kMaxDepth; ++i)
    ok += "<a>";
  for (unsigned i = 0; i < xml::kMaxDepth; ++i)
    ok += "</a>";
  parseOK(ok);
  for (unsigned i = 0; i < 100000; ++i)
    tooDeep += "<a>";
  EXPECT_EQ(parseError(tooDeep), "t.xml:1:769: elements nest deeper than 256");
}

TEST(XML, Errors) {
  EXPECT_EQ(parseError(""), "t.xml:1:1: no root element");
  EXPECT_EQ(parseError("  \n"), "t.xml:2:1: no root element");
  EXPECT_EQ(parseError("hello"), "t.xml:1:1: expected the root element");
  EXPECT_EQ(parseError("<a>\n<b></a>"),
            "t.xml:2:4: end tag </a> does not match <b> opened at line 2");
  EXPECT_EQ(parseError("<a>\n<b>"),
            "t.xml:2:4: unexpected end of file: <b> opened at line 2 is not "
            "closed");
  EXPECT_EQ(parseError("<a x=\"1\" x=\"2\"/>"),
            "t.xml:1:10: duplicate attribute 'x' in <a>");
  EXPECT_EQ(parseError("<a x=1/>"),
            "t.xml:1:6: expected a quoted attribute value");
  EXPECT_EQ(parseError("<a x=\"1\"y=\"2\"/>"),
            "t.xml:1:9: expected whitespace, '>' or '/>' in <a>");
  EXPECT_EQ(parseError("<a x/>"),
            "t.xml:1:5: expected '=' after attribute 'x'");
  EXPECT_EQ(parseError("<a x=\"<\"/>"),
            "t.xml:1:7: '<' is not allowed in an attribute value");
  EXPECT_EQ(parseError("<a x=\"1/>"),
            "t.xml:1:6: attribute value is not closed");
  EXPECT_EQ(parseError("<a"), "t.xml:1:3: start tag <a> is not closed");
  EXPECT_EQ(parseError("<a>&nbsp;</a>"),
            "t.xml:1:4: unknown entity '&nbsp;' (only &amp; &lt; &gt; &quot; "
            "&apos; and character references are supported)");
  EXPECT_EQ(parseError("<a>AT&T</a>"),
            "t.xml:1:6: '&' must start an entity reference such as &amp;");
  EXPECT_EQ(parseError("<a>&#xZZ;</a>"),
            "t.xml:1:4: malformed character reference '&#xZZ;'");
  EXPECT_EQ(parseError("<a>&#0;</a>"),
            "t.xml:1:4: character reference '&#0;' names a character XML "
            "does not allow");
  EXPECT_EQ(parseError("<a/><b/>"),
            "t.xml:1:5: content after the root element");
  EXPECT_EQ(parseError("<a/>text"),
            "t.xml:1:5: content after the root element");
  EXPECT_EQ(parseError("<!DOCTYPE a [<!ENTITY x \"y\">]><a/>"),
            "t.xml:1:1: DOCTYPE declarations are not supported");
  EXPECT_EQ(parseError("<a><!DOCTYPE a></a>"),
            "t.xml:1:4: DOCTYPE declarations are not supported");
  EXPECT_EQ(parseError("<a><!ELEMENT a></a>"),
            "t.xml:1:4: unexpected markup '<!'");
  EXPECT_EQ(parseError("<a><!-- x -- y --></a>"),
            "t.xml:1:11: '--' is not allowed inside a comment");
  EXPECT_EQ(parseError("<a><!-- x </a>"), "t.xml:1:4: comment is not closed");
  EXPECT_EQ(parseError("<a><![CDATA[x</a>"),
            "t.xml:1:4: CDATA section is not closed");
  EXPECT_EQ(parseError("<a><?pi x</a>"),
            "t.xml:1:4: processing instruction is not closed");
  EXPECT_EQ(parseError("<a>x]]>y</a>"),
            "t.xml:1:5: ']]>' is not allowed in character data");
  EXPECT_EQ(parseError("<a>\x01</a>"), "t.xml:1:4: invalid character U+0001");
  EXPECT_EQ(parseError(llvm::StringRef("<a>\0</a>", 8)),
            "t.xml:1:4: invalid character U+0000");
  EXPECT_EQ(parseError("<a>\xFF</a>"), "t.xml:1:4: not valid UTF-8");
  EXPECT_EQ(parseError("<a></>"),
            "t.xml:1:6: expected an element name after '</'");
  EXPECT_EQ(parseError("<a></a x>"), "t.xml:1:8: expected '>' to close </a>");
  EXPECT_EQ(parseError("<1a/>"), "t.xml:1:1: expected the root element");
}

TEST(XML, DeclarationErrors) {
  EXPECT_EQ(parseError(" <?xml version=\"1.0\"?><a/>"),
            "t.xml:1:2: the XML declaration is only allowed at the very start "
            "of the file");
  EXPECT_EQ(parseError("<a><?xml version=\"1.0\"?></a>"),
            "t.xml:1:4: the XML declaration is only allowed at the very start "
            "of the file");
  EXPECT_EQ(parseError("<?xml encoding=\"UTF-8\"?><a/>"),
            "t.xml:1:7: 'encoding' is out of place in the XML declaration");
  EXPECT_EQ(parseError("<?xml version=\"1.0\" encoding=\"UTF-16\"?><a/>"),
            "t.xml:1:21: unsupported encoding 'UTF-16' (only UTF-8 is read)");
  EXPECT_EQ(parseError("<?xml version=\"2.0\"?><a/>"),
            "t.xml:1:7: unsupported XML version '2.0'");
  EXPECT_EQ(parseError("<?xml version=\"1.0\" standalone=\"maybe\"?><a/>"),
            "t.xml:1:21: standalone must be 'yes' or 'no'");
  EXPECT_EQ(parseError("<?xml version=\"1.0\" foo=\"1\"?><a/>"),
            "t.xml:1:21: unknown 'foo' in the XML declaration");
  EXPECT_EQ(parseError("<?xml?><a/>"),
            "t.xml:1:1: the XML declaration needs a version");
  EXPECT_EQ(parseError("<?xml version=\"1.0\""),
            "t.xml:1:1: XML declaration is not closed");
}

TEST(XML, ErrorNamesTheFile) {
  llvm::Expected<xml::Element> root = xml::parse("<a>", "dir/m.xml");
  ASSERT_FALSE(root);
  EXPECT_EQ(llvm::toString(root.takeError()),
            "dir/m.xml:1:4: unexpected end of file: <a> opened at line 1 is "
            "not closed");
  llvm::Expected<xml::Element> missing = xml::parseFile("/nonexistent/m.xml");
  ASSERT_FALSE(missing);
  EXPECT_EQ(llvm::toString(missing.takeError()),
            "/nonexistent/m.xml: cannot read file: No such file or directory");
}

} // namespace
