// `octet run MODEL --image PICTURE`: the picture reaches the model converted as the input's
// type says, and the printed classes are the model's top scores. The test models reshape
// their [1, H, W, C] input into the scores, so every score is one converted pixel value.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "util/cli_runner.h"

namespace {

using Result = octet::testing::CliResult;

Result RunCli(const std::string& args) { return octet::testing::RunOctetCli(args); }

std::string TempDir() { return octet::testing::MakeTempDir("octet_image"); }

const std::string kData = OCTET_SOURCE_DIR "/tests/cli/data/";

void WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

void Put32(std::vector<uint8_t>* b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

// A 24-bit BMP (rows bottom-up, BGR, padded to 4 bytes) of `rgb` [height][width][3].
std::vector<uint8_t> Bmp(int width, int height, const std::vector<uint8_t>& rgb) {
  const uint32_t row = (static_cast<uint32_t>(width) * 3 + 3) & ~3u;
  std::vector<uint8_t> b = {'B', 'M'};
  Put32(&b, 54 + row * height);
  Put32(&b, 0);
  Put32(&b, 54);
  Put32(&b, 40);
  Put32(&b, static_cast<uint32_t>(width));
  Put32(&b, static_cast<uint32_t>(height));
  b.push_back(1), b.push_back(0), b.push_back(24), b.push_back(0);
  for (uint32_t v : {0u, row * height, 2835u, 2835u, 0u, 0u}) Put32(&b, v);
  for (int y = height - 1; y >= 0; --y) {
    for (int x = 0; x < width; ++x) {
      const uint8_t* p = &rgb[(static_cast<size_t>(y) * width + x) * 3];
      b.push_back(p[2]), b.push_back(p[1]), b.push_back(p[0]);
    }
    for (uint32_t pad = static_cast<uint32_t>(width) * 3; pad < row; ++pad) b.push_back(0);
  }
  return b;
}

// Input [1, h, w, c] of `type` (quantized with scale/zero point unless float), reshaped into
// scores [1, h * w * c] with the same type and quantization.
std::vector<uint8_t> ReshapeModel(tflite::TensorType type, int h, int w, int c, float scale = 0,
                                  int64_t zero_point = 0) {
  using namespace tflite;
  octet::format::ModelBuilder b;
  const int reshape = b.AddOperatorCode(BuiltinOperator_RESHAPE);
  const int n = h * w * c;
  const bool quantized = type != TensorType_FLOAT32;
  const int x = quantized ? b.AddQuantizedTensor(type, {1, h, w, c}, "image", {scale}, {zero_point})
                          : b.AddTensor(type, {1, h, w, c}, "image");
  const int y = quantized ? b.AddQuantizedTensor(type, {1, n}, "scores", {scale}, {zero_point})
                          : b.AddTensor(type, {1, n}, "scores");
  const int shape = b.AddConstTensor(TensorType_INT32, {2}, std::vector<int32_t>{1, n}, "shape");
  b.AddOperator(reshape, {x, shape}, {y}, b.ReshapeOptions({1, n}));
  b.SetInputs({x});
  b.SetOutputs({y});
  return b.Finish();
}

// The score printed on the line of rank `rank` ("  1. 0.937255      8  label").
struct Ranked {
  double score = NAN;
  int index = -1;
  std::string label;
};
Ranked Rank(const std::string& output, int rank) {
  Ranked r;
  const std::string key = (rank < 10 ? "   " : "  ") + std::to_string(rank) + ". ";
  const size_t at = output.find(key);
  if (at == std::string::npos) return r;
  const size_t end = output.find('\n', at);
  const std::string line = output.substr(at + key.size(), end - at - key.size());
  char label[256] = "";
  if (std::sscanf(line.c_str(), "%lf %d %255[^\n]", &r.score, &r.index, label) >= 2) {
    r.label = label;
  }
  return r;
}

// Skips when this CLI was built without stb_image (the error says so).
#define SKIP_WITHOUT_STB(result)                                              \
  if ((result).output.find("built without stb_image") != std::string::npos) { \
    GTEST_SKIP() << "octet built without stb_image: " << (result).output;     \
  }

// rgb_2x2.png: (10,20,30) (40,50,60) / (70,80,250) (100,110,120): the largest value, 250, is
// score 8; the next, 120, score 11.
TEST(CliImage, FloatInputGetsPixelMinusMeanOverStd) {
  const std::string dir = TempDir();
  WriteBytes(dir + "/m.tflite", ReshapeModel(tflite::TensorType_FLOAT32, 2, 2, 3));
  Result r = RunCli("run " + dir + "/m.tflite --image " + kData + "rgb_2x2.png --top 2");
  SKIP_WITHOUT_STB(r);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("(pixel - 127.5) / 127.5"), std::string::npos) << r.output;
  EXPECT_EQ(Rank(r.output, 1).index, 8) << r.output;
  EXPECT_NEAR(Rank(r.output, 1).score, (250 - 127.5) / 127.5, 1e-6) << r.output;
  EXPECT_EQ(Rank(r.output, 2).index, 11) << r.output;
  EXPECT_NEAR(Rank(r.output, 2).score, (120 - 127.5) / 127.5, 1e-6) << r.output;
  EXPECT_EQ(Rank(r.output, 3).index, -1) << "only --top 2 lines: " << r.output;

  r = RunCli("run " + dir + "/m.tflite --image " + kData + "rgb_2x2.png --mean 0 --std 255");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NEAR(Rank(r.output, 1).score, 250 / 255.0, 1e-6) << r.output;
  // Sorted: 250, 120, 110, 100, 80, ...
  EXPECT_NEAR(Rank(r.output, 5).score, 80 / 255.0, 1e-6) << r.output;
}

TEST(CliImage, QuantizedInputsTakePixelLevelsAsCodes) {
  const std::string dir = TempDir();
  // uint8 with scale 1/255, zero point 0: code = pixel, score = pixel / 255.
  WriteBytes(dir + "/u8.tflite", ReshapeModel(tflite::TensorType_UINT8, 2, 2, 3, 1 / 255.f, 0));
  Result r = RunCli("run " + dir + "/u8.tflite --image " + kData + "rgb_2x2.png");
  SKIP_WITHOUT_STB(r);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("pixel levels as codes (pixel)"), std::string::npos) << r.output;
  EXPECT_EQ(Rank(r.output, 1).index, 8);
  EXPECT_NEAR(Rank(r.output, 1).score, 250 / 255.0, 1e-6) << r.output;
  // int8 with scale 1/255, zero point -128: code = pixel - 128, the same real values.
  WriteBytes(dir + "/s8.tflite", ReshapeModel(tflite::TensorType_INT8, 2, 2, 3, 1 / 255.f, -128));
  r = RunCli("run " + dir + "/s8.tflite --image " + kData + "rgb_2x2.png");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("(pixel - 128)"), std::string::npos) << r.output;
  EXPECT_NEAR(Rank(r.output, 1).score, 250 / 255.0, 1e-6) << r.output;
  EXPECT_NEAR(Rank(r.output, 2).score, 120 / 255.0, 1e-6) << r.output;
  // --mean/--std quantize (pixel - mean) / std with the input's parameters: with scale 1/64
  // and zero point 0, (250 - 128) / 128 = 0.953 -> code 61 -> 0.953125.
  WriteBytes(dir + "/q.tflite", ReshapeModel(tflite::TensorType_INT8, 2, 2, 3, 1 / 64.f, 0));
  r = RunCli("run " + dir + "/q.tflite --image " + kData + "rgb_2x2.png --mean 128 --std 128");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NEAR(Rank(r.output, 1).score, std::round((250 - 128) / 128.0 * 64) / 64, 1e-6) << r.output;
  // A tiny std saturates every code at the type's limit (no overflow on the way).
  r = RunCli("run " + dir + "/q.tflite --image " + kData +
             "rgb_2x2.png --mean 0 --std 1e-30 --top 12");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NEAR(Rank(r.output, 1).score, 127 / 64.0, 1e-6) << r.output;
  EXPECT_NEAR(Rank(r.output, 12).score, 127 / 64.0, 1e-6) << r.output;
}

TEST(CliImage, PicturesAreResizedToTheInputAndLabelled) {
  const std::string dir = TempDir();
  // A 6x4 BMP of one colour resized to 2x2: every pixel keeps the colour.
  std::vector<uint8_t> rgb;
  for (int i = 0; i < 6 * 4; ++i) rgb.insert(rgb.end(), {30, 200, 90});
  WriteBytes(dir + "/solid.bmp", Bmp(6, 4, rgb));
  WriteBytes(dir + "/m.tflite", ReshapeModel(tflite::TensorType_UINT8, 2, 2, 3, 1.f, 0));
  {
    std::ofstream labels(dir + "/labels.txt");
    for (int i = 0; i < 12; ++i) labels << "class " << i << "\n";
  }
  const Result r = RunCli("run " + dir + "/m.tflite --image " + dir + "/solid.bmp --labels " + dir +
                          "/labels.txt --top 4");
  SKIP_WITHOUT_STB(r);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("solid.bmp 6x4 -> [1, 2, 2, 3]"), std::string::npos) << r.output;
  // Green (200) of each of the 4 pixels ties: class order decides, 1, 4, 7, 10.
  for (int rank = 1; rank <= 4; ++rank) {
    const Ranked got = Rank(r.output, rank);
    EXPECT_EQ(got.score, 200) << r.output;
    EXPECT_EQ(got.index, 1 + 3 * (rank - 1)) << r.output;
    EXPECT_EQ(got.label, "class " + std::to_string(got.index)) << r.output;
  }
  // No .npy files unless --output-dir is given.
  EXPECT_EQ(r.output.find("output_0.npy"), std::string::npos) << r.output;
}

TEST(CliImage, JpegDecodesAndGrayInputsGetLuminance) {
  const std::string dir = TempDir();
  WriteBytes(dir + "/rgb.tflite", ReshapeModel(tflite::TensorType_UINT8, 4, 4, 3, 1.f, 0));
  Result r = RunCli("run " + dir + "/rgb.tflite --image " + kData + "solid_16x16.jpg --top 1");
  SKIP_WITHOUT_STB(r);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NEAR(Rank(r.output, 1).score, 200, 3) << r.output;  // (200, 100, 50), JPEG-rounded
  EXPECT_EQ(Rank(r.output, 1).index % 3, 0) << r.output;     // a red channel
  // One channel: stb_image's luminance, (77 r + 150 g + 29 b) >> 8 = 124 for (200, 100, 50).
  WriteBytes(dir + "/gray.tflite", ReshapeModel(tflite::TensorType_UINT8, 4, 4, 1, 1.f, 0));
  r = RunCli("run " + dir + "/gray.tflite --image " + kData + "solid_16x16.jpg --top 1");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NEAR(Rank(r.output, 1).score, 124, 3) << r.output;
}

TEST(CliImage, BadPicturesAndModelsAreOneLineErrors) {
  const std::string dir = TempDir();
  WriteBytes(dir + "/m.tflite", ReshapeModel(tflite::TensorType_FLOAT32, 2, 2, 3));
  Result r = RunCli("run " + dir + "/m.tflite --image " + dir + "/missing.png");
  SKIP_WITHOUT_STB(r);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("error: cannot read the image '" + dir + "/missing.png'"),
            std::string::npos)
      << r.output;
  WriteBytes(dir + "/junk.png", std::vector<uint8_t>(100, 0x42));
  r = RunCli("run " + dir + "/m.tflite --image " + dir + "/junk.png");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("error: cannot read the image"), std::string::npos) << r.output;
  // A model whose input is not an image.
  WriteBytes(dir + "/flat.tflite", ReshapeModel(tflite::TensorType_FLOAT32, 1, 1, 12));
  r = RunCli("run " + dir + "/flat.tflite --image " + kData + "rgb_2x2.png");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("error: --image needs an input of shape [1, H, W, 1 or 3]"),
            std::string::npos)
      << r.output;
  // --image and --input exclude each other; --labels needs --image.
  r = RunCli("run " + dir + "/m.tflite --image " + kData + "rgb_2x2.png --input x.npy");
  EXPECT_EQ(r.code, 1) << r.output;
  r = RunCli("run " + dir + "/m.tflite --labels l.txt --input x.npy");
  EXPECT_EQ(r.code, 1) << r.output;
}

}  // namespace
