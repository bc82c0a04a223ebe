// `octet inspect --graph` and `octet bench --plot`: the pictures a user asks for, drawn from
// the model they describe.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "format/model_builder.h"
#include "util/cli_runner.h"
#include "util/forever_model.h"

namespace {

using Result = octet::testing::CliResult;

Result RunCli(const std::string& args) { return octet::testing::RunOctetCli(args); }

std::string TempDir() { return octet::testing::MakeTempDir("octet_pictures"); }

void WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

std::string ReadText(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// x -> CONV_2D(weights 4x3x3x2, bias 4) -> RELU -> y.
std::vector<uint8_t> ConvReluModel() {
  using namespace tflite;
  octet::format::ModelBuilder b;
  const int conv = b.AddOperatorCode(BuiltinOperator_CONV_2D);
  const int relu = b.AddOperatorCode(BuiltinOperator_RELU);
  const int x = b.AddTensor(TensorType_FLOAT32, {1, 8, 8, 2}, "x");
  const int w =
      b.AddConstTensor(TensorType_FLOAT32, {4, 3, 3, 2}, std::vector<float>(72, 0.1f), "w");
  const int bias = b.AddConstTensor(TensorType_FLOAT32, {4}, std::vector<float>(4, 0.f), "b");
  const int h = b.AddTensor(TensorType_FLOAT32, {1, 8, 8, 4}, "h");
  const int y = b.AddTensor(TensorType_FLOAT32, {1, 8, 8, 4}, "y");
  b.AddOperator(conv, {x, w, bias}, {h}, b.Conv2DOptions(Padding_SAME, 1, 1));
  b.AddOperator(relu, {h}, {y});
  b.SetInputs({x});
  b.SetOutputs({y});
  return b.Finish();
}

// Skips when this CLI was built without Graphviz (the error says so).
#define SKIP_WITHOUT_GRAPHVIZ(result)                                        \
  if ((result).output.find("built without Graphviz") != std::string::npos) { \
    GTEST_SKIP() << "octet built without Graphviz: " << (result).output;     \
  }

TEST(CliPictures, GraphShowsOpsTensorsConstantsInputsAndOutputs) {
  const std::string dir = TempDir();
  WriteBytes(dir + "/m.tflite", ConvReluModel());
  const Result r = RunCli("inspect " + dir + "/m.tflite --graph " + dir + "/g.dot");
  SKIP_WITHOUT_GRAPHVIZ(r);
  ASSERT_EQ(r.code, 0) << r.output;
  const std::string dot = ReadText(dir + "/g.dot");
  EXPECT_NE(dot.find("#0 CONV_2D"), std::string::npos) << dot;
  EXPECT_NE(dot.find("#1 RELU"), std::string::npos) << dot;
  // The weights and bias are folded into the conv's box, not drawn as nodes of their own.
  EXPECT_NE(dot.find("const [4, 3, 3, 2] FLOAT32"), std::string::npos) << dot;
  EXPECT_NE(dot.find("const [4] FLOAT32"), std::string::npos) << dot;
  EXPECT_NE(dot.find("input 0: x"), std::string::npos) << dot;
  EXPECT_NE(dot.find("output 0: y"), std::string::npos) << dot;
  // Three edges (x -> conv -> relu -> y), each labelled with its tensor.
  EXPECT_EQ(Count(dot, "->"), 3u) << dot;
  EXPECT_EQ(Count(dot, "[1, 8, 8, 4] FLOAT32"), 2u + 1u) << dot;  // two edges + output label
  // Laid out: dot's output carries positions.
  EXPECT_NE(dot.find("pos="), std::string::npos) << dot;
}

TEST(CliPictures, GraphDrawsSubgraphsAsClustersTheCallerPointsInto) {
  const std::string dir = TempDir();
  WriteBytes(dir + "/while.tflite", octet::test::CountToLimitModel());
  const Result r = RunCli("inspect " + dir + "/while.tflite --graph " + dir + "/w.dot");
  SKIP_WITHOUT_GRAPHVIZ(r);
  ASSERT_EQ(r.code, 0) << r.output;
  const std::string dot = ReadText(dir + "/w.dot");
  EXPECT_NE(dot.find("cluster_1"), std::string::npos) << dot;
  EXPECT_NE(dot.find("cluster_2"), std::string::npos) << dot;
  EXPECT_NE(dot.find("subgraph 1 'cond'"), std::string::npos) << dot;
  EXPECT_NE(dot.find("cond: subgraph 1"), std::string::npos) << dot;
  EXPECT_NE(dot.find("body: subgraph 2"), std::string::npos) << dot;
  EXPECT_NE(dot.find("#0 LESS"), std::string::npos) << dot;
  EXPECT_EQ(Count(dot, "style=dashed"), 2u) << dot;  // WHILE -> cond, WHILE -> body
  EXPECT_NE(dot.find("lhead=cluster_2"), std::string::npos) << dot;
}

TEST(CliPictures, GraphWritesSvgAndPng) {
  const std::string dir = TempDir();
  WriteBytes(dir + "/m.tflite", ConvReluModel());
  Result r = RunCli("inspect " + dir + "/m.tflite --graph " + dir + "/g.svg");
  SKIP_WITHOUT_GRAPHVIZ(r);
  ASSERT_EQ(r.code, 0) << r.output;
  const std::string svg = ReadText(dir + "/g.svg");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("CONV_2D"), std::string::npos);
  r = RunCli("inspect " + dir + "/m.tflite --graph " + dir + "/g.png");
  ASSERT_EQ(r.code, 0) << r.output;
  const std::string png = ReadText(dir + "/g.png");
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
}

TEST(CliPictures, GraphWithAnUnknownExtensionIsAOneLineError) {
  const std::string dir = TempDir();
  WriteBytes(dir + "/m.tflite", ConvReluModel());
  const Result r = RunCli("inspect " + dir + "/m.tflite --graph " + dir + "/g.jpeg");
  SKIP_WITHOUT_GRAPHVIZ(r);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("error: cannot tell the picture format"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(".svg, .png, .pdf or .dot"), std::string::npos) << r.output;
}

TEST(CliPictures, PlotHasOneBarPerOpAndPerNodeWithTheProfileNumbers) {
  const std::string dir = TempDir();
  WriteBytes(dir + "/m.tflite", ConvReluModel());
  const Result r =
      RunCli("bench " + dir + "/m.tflite --runs 5 --warmup 1 --plot " + dir + "/p.svg");
  ASSERT_EQ(r.code, 0) << r.output;
  // --plot implies the printed profile too.
  EXPECT_NE(r.output.find("profile (per invoke, medians of 5 runs)"), std::string::npos) << r.output;
  const std::string svg = ReadText(dir + "/p.svg");
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u) << svg;
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("CONV_2D (1)"), std::string::npos) << svg;
  EXPECT_NE(svg.find("RELU (1)"), std::string::npos) << svg;
  EXPECT_NE(svg.find("#0 CONV_2D [1, 8, 8, 4]"), std::string::npos) << svg;
  EXPECT_EQ(Count(svg, "<rect x="), 4u) << svg;  // 2 op types + 2 nodes
  // The chart's total is the printed one.
  const size_t at = r.output.find("5 runs): ");
  ASSERT_NE(at, std::string::npos);
  const std::string total = r.output.substr(at + 9, r.output.find(" ms", at) - at - 9);
  EXPECT_NE(svg.find(total + " ms per invoke in nodes"), std::string::npos) << total << "\n" << svg;
  // GMAC/s appears for the conv (its MACs are known), not for RELU.
  EXPECT_EQ(Count(svg, "GMAC/s</title>"), 2u) << svg;  // the conv's op bar and node bar
}

TEST(CliPictures, PlotRefusesCompareAndUnwritablePaths) {
  const std::string dir = TempDir();
  WriteBytes(dir + "/m.tflite", ConvReluModel());
  Result r =
      RunCli("bench " + dir + "/m.tflite --runs 2 --plot " + dir + "/p.svg --compare xnnpack");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("error: --plot"), std::string::npos) << r.output;
  r = RunCli("bench " + dir + "/m.tflite --runs 2 --plot " + dir + "/missing/dir/p.svg");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("error: cannot write the profile plot"), std::string::npos) << r.output;
}

}  // namespace
