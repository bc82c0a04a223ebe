// BIDIRECTIONAL_SEQUENCE_LSTM with aux input weights (the aux input feeds both cells through
// their own weights), against outputs of TFLite 2.12 itself: each model below is built in
// code, written out (set OCTET_BIDI_AUX_DUMP=DIR to get DIR/<case>.tflite and its two raw
// inputs) and run by TFLite's WASM build under node, two invokes in a row (the states carry
// over); the golden floats are what it printed for every output of both invokes. Hybrid
// (int8 weights, float activations) with symmetric and asymmetric input quantization, merged
// and separate outputs, time-major and batch-major, CIFG; and the float kernel. Octet must
// give these (to 1e-6, see ExpectGolden) on the reference path and every optimized path. Also
// prepare's refusals of aux weights a hybrid node cannot take.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "util/builtin_interpreter.h"
#include "util/capture_reporter.h"
#include "util/kernel_paths.h"

namespace octet {
namespace {

using format::ModelBuilder;

// TFLite 2.12 checks the backward cell's shapes against the forward cell's n_cell and
// n_output: both directions have the same sizes here.
struct Cell {
  int n_cell = 4, n_output = 4;
  bool cifg = false, peephole = false, projection = false;
};

struct Case {
  const char* name = "";
  bool hybrid = true, asymmetric = false, merge = false, time_major = true;
  // TFLite before its August 2026 fix steps through the aux input n_batch * n_input floats at
  // a time (reading past it when it is narrower): the goldens keep n_aux == n_input, where
  // that stride is the right one.
  int max_time = 3, n_batch = 2, n_input = 3, n_aux = 3;
  float cell_clip = 0.f, proj_clip = 0.f;
  Cell fw, bw;
  // Changes the spec of the forward aux forget-gate weights (refusal tests).
  std::function<void(format::TensorSpec*)> tweak_aux;
  bool aux_weights_constant = true;
};

// Values that are the same on every platform: a 32-bit LCG.
struct Lcg {
  uint32_t state;
  uint32_t Next() {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  }
  float Float(float range) {  // multiples of range / 32768 in [-range, range)
    return (static_cast<float>(Next() & 0xFFFF) / 32768.f - 1.f) * range;
  }
  int8_t Int8() { return static_cast<int8_t>(static_cast<int>(Next() % 255) - 127); }
};

// One direction's inputs 1..17 (TFLite's order), appended to `inputs` (-1 when absent).
void AddCell(ModelBuilder& b, Lcg& rng, const Case& c, const Cell& cell, const std::string& dir,
             std::vector<int32_t>* inputs) {
  for (int k = 1; k <= 17; ++k) {
    const bool input_gate = k == 1 || k == 5 || k == 9 || k == 12;
    bool present = !(input_gate && cell.cifg);
    if (k >= 9 && k <= 11) present = present && cell.peephole;
    if (k >= 16) present = cell.projection;
    if (!present) {
      inputs->push_back(-1);
      continue;
    }
    std::vector<int32_t> shape = {cell.n_cell};
    if (k <= 4) shape = {cell.n_cell, c.n_input};
    if (k >= 5 && k <= 8) shape = {cell.n_cell, cell.n_output};
    if (k == 16) shape = {cell.n_output, cell.n_cell};
    if (k == 17) shape = {cell.n_output};
    size_t n = 1;
    for (int d : shape) n *= static_cast<size_t>(d);
    const std::string name = dir + "_" + std::to_string(k);
    const bool weight = k <= 11 || k == 16;
    if (c.hybrid && weight) {
      std::vector<int8_t> v(n);
      for (auto& x : v) x = rng.Int8();
      const int buffer = b.AddTypedBuffer(v);
      const float scale = 0.6f / 127.f + 0.0003f * static_cast<float>(k);
      inputs->push_back(b.AddQuantizedTensor(tflite::TensorType_INT8, shape, name, {scale}, {0}, 0,
                                             static_cast<uint32_t>(buffer)));
    } else {
      std::vector<float> v(n);
      for (auto& x : v) x = rng.Float(0.6f);
      inputs->push_back(b.AddConstTensor(tflite::TensorType_FLOAT32, shape, v, name));
    }
  }
}

// The aux weights of one direction (inputs 40..43 or 44..47).
void AddAuxWeights(ModelBuilder& b, Lcg& rng, const Case& c, const Cell& cell,
                   const std::string& dir, bool tweak, std::vector<int32_t>* inputs) {
  for (int g = 0; g < 4; ++g) {
    if (g == 0 && cell.cifg) {
      inputs->push_back(-1);
      continue;
    }
    const size_t n = static_cast<size_t>(cell.n_cell) * c.n_aux;
    format::TensorSpec spec;
    spec.shape = {cell.n_cell, c.n_aux};
    spec.name = dir + "_aux_" + std::to_string(g);
    spec.type = c.hybrid ? tflite::TensorType_INT8 : tflite::TensorType_FLOAT32;
    if (c.hybrid) {
      spec.quantization =
          format::QuantParams{{0.5f / 127.f + 0.0002f * static_cast<float>(g)}, {0}};
    }
    if (tweak && g == 1 && c.tweak_aux) c.tweak_aux(&spec);
    if (spec.type == tflite::TensorType_INT8) {
      std::vector<int8_t> v(n);
      for (auto& x : v) x = rng.Int8();
      spec.buffer = static_cast<uint32_t>(b.AddTypedBuffer(v));
    } else {
      std::vector<float> v(n);
      for (auto& x : v) x = rng.Float(0.5f);
      spec.buffer = static_cast<uint32_t>(b.AddTypedBuffer(v));
    }
    if (tweak && g == 1 && !c.aux_weights_constant) spec.buffer = 0;
    inputs->push_back(b.AddTensor(spec));
  }
}

std::vector<int32_t> SeqShape(const Case& c, int width) {
  return c.time_major ? std::vector<int32_t>{c.max_time, c.n_batch, width}
                      : std::vector<int32_t>{c.n_batch, c.max_time, width};
}

std::vector<uint8_t> BuildModel(const Case& c) {
  ModelBuilder b;
  Lcg rng{12345u};
  std::vector<int32_t> in;
  in.push_back(b.AddTensor(tflite::TensorType_FLOAT32, SeqShape(c, c.n_input), "input"));
  AddCell(b, rng, c, c.fw, "fw", &in);
  AddCell(b, rng, c, c.bw, "bw", &in);
  const Cell* cells[2] = {&c.fw, &c.bw};
  for (int d = 0; d < 2; ++d) {
    for (int width : {cells[d]->n_output, cells[d]->n_cell}) {
      format::TensorSpec state;
      state.shape = {c.n_batch, width};
      state.name = "state" + std::to_string(in.size());
      state.is_variable = true;
      in.push_back(b.AddTensor(state));
    }
  }
  const int aux = b.AddTensor(tflite::TensorType_FLOAT32, SeqShape(c, c.n_aux), "aux_input");
  in.push_back(aux);
  AddAuxWeights(b, rng, c, c.fw, "fw", true, &in);
  AddAuxWeights(b, rng, c, c.bw, "bw", false, &in);
  std::vector<int32_t> out;
  const int fw_width = c.fw.n_output + (c.merge ? c.bw.n_output : 0);
  out.push_back(b.AddTensor(tflite::TensorType_FLOAT32, SeqShape(c, fw_width), "fw_output"));
  if (!c.merge) {
    out.push_back(b.AddTensor(tflite::TensorType_FLOAT32, SeqShape(c, c.bw.n_output), "bw_output"));
  }
  const int code = b.AddOperatorCode(tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM, 3);
  format::BuiltOptions options;
  options.type = tflite::BuiltinOptions_BidirectionalSequenceLSTMOptions;
  options.offset = tflite::CreateBidirectionalSequenceLSTMOptions(
                       b.fbb(), tflite::ActivationFunctionType_TANH, c.cell_clip, c.proj_clip,
                       c.merge, c.time_major, c.asymmetric)
                       .Union();
  b.AddOperator(code, in, out, options);
  // A non-constant aux weight tensor is fed as a third graph input.
  if (c.aux_weights_constant) {
    b.SetInputs({in[0], aux});
  } else {
    b.SetInputs({in[0], aux, in[41]});
  }
  b.SetOutputs(out);
  return b.Finish();
}

// The two inputs: values in [-1, 1); the aux rows of time step 1 are all zeros (TFLite then
// skips the aux products of that step).
void MakeInputs(const Case& c, std::vector<float>* x, std::vector<float>* a) {
  Lcg rng{777u};
  const size_t rows = static_cast<size_t>(c.max_time) * c.n_batch;
  x->resize(rows * c.n_input);
  for (auto& v : *x) v = rng.Float(1.f);
  a->resize(rows * c.n_aux);
  for (int t = 0; t < c.max_time; ++t) {
    for (int bi = 0; bi < c.n_batch; ++bi) {
      const size_t row = c.time_major ? size_t(t) * c.n_batch + bi : size_t(bi) * c.max_time + t;
      for (int k = 0; k < c.n_aux; ++k) (*a)[row * c.n_aux + k] = t == 1 ? 0.f : rng.Float(1.f);
    }
  }
}

using Reporter = ::octet::testing::CaptureReporter;

struct Run {
  TfLiteStatus status = kTfLiteError;
  std::vector<float> values;  // every output of invoke 1, then of invoke 2
  std::string log;
};

Run RunOctet(const std::vector<uint8_t>& model, const std::vector<float>& x,
             const std::vector<float>& a) {
  Run r;
  Reporter reporter;
  const ::octet::testing::BuiltinInterpreter built =
      ::octet::testing::BuildWithBuiltins(model, &reporter);
  tflite::Interpreter* interpreter = built.interpreter.get();
  r.status = interpreter ? interpreter->AllocateTensors() : kTfLiteError;
  for (int call = 0; call < 2 && r.status == kTfLiteOk; ++call) {
    TfLiteTensor* in0 = interpreter->tensor(interpreter->inputs()[0]);
    TfLiteTensor* in1 = interpreter->tensor(interpreter->inputs()[1]);
    if (in0->bytes != x.size() * sizeof(float) || in1->bytes != a.size() * sizeof(float)) {
      r.status = kTfLiteError;
      break;
    }
    std::memcpy(in0->data.raw, x.data(), in0->bytes);
    std::memcpy(in1->data.raw, a.data(), in1->bytes);
    r.status = interpreter->Invoke();
    for (int o : interpreter->outputs()) {
      if (r.status != kTfLiteOk) break;
      const TfLiteTensor* t = interpreter->tensor(o);
      r.values.insert(r.values.end(), t->data.f, t->data.f + t->bytes / sizeof(float));
    }
  }
  r.log = reporter.text;
  return r;
}

void MaybeDump(const Case& c, const std::vector<uint8_t>& model, const std::vector<float>& x,
               const std::vector<float>& a) {
  const char* dir = std::getenv("OCTET_BIDI_AUX_DUMP");
  if (dir == nullptr) return;
  const std::string base = std::string(dir) + "/" + c.name;
  std::ofstream(base + ".tflite", std::ios::binary)
      .write(reinterpret_cast<const char*>(model.data()),
             static_cast<std::streamsize>(model.size()));
  std::ofstream(base + ".in0.bin", std::ios::binary)
      .write(reinterpret_cast<const char*>(x.data()), static_cast<std::streamsize>(x.size() * 4));
  std::ofstream(base + ".in1.bin", std::ios::binary)
      .write(reinterpret_cast<const char*>(a.data()), static_cast<std::streamsize>(a.size() * 4));
}

void ExpectGolden(const Case& c, const std::vector<float>& golden) {
  const std::vector<uint8_t> model = BuildModel(c);
  std::vector<float> x, a;
  MakeInputs(c, &x, &a);
  MaybeDump(c, model, x, a);
  std::vector<cpu::Isa> paths = {cpu::Isa::kReference};
  for (cpu::Isa isa : testing::OptimizedPaths()) paths.push_back(isa);
  for (cpu::Isa isa : paths) {
    SCOPED_TRACE(std::string(c.name) + " on " + cpu::IsaName(isa));
    testing::IsaScope scope(isa);
    ASSERT_TRUE(scope.ok);
    const Run r = RunOctet(model, x, a);
    ASSERT_EQ(r.status, kTfLiteOk) << r.log;
    ASSERT_EQ(r.values.size(), golden.size());
    // Not to the bit: the WASM build's expf/tanhf and its vectorized float sums round
    // differently in the last place (the int8 products are exact); the differences seen are
    // below 2e-7, a wrong term moves outputs by far more.
    for (size_t i = 0; i < golden.size(); ++i) {
      EXPECT_NEAR(r.values[i], golden[i], 1e-6) << "value " << i;
    }
  }
}

// Merged outputs, batch-major: TFLite (2.12 and still in 2026) offsets sequence b's output
// state by b * (forward + backward width) instead of b * its own width, so every sequence
// after the first reads and writes another's state or past the tensor. Its goldens keep one
// sequence; the other cases cover several.
constexpr int kMergedBatchMajorRows = 1;

Case HybridSymmetricSeparateTimeMajor() {
  Case c;
  c.name = "hybrid_sym_separate_time_major";
  c.fw.peephole = true;
  c.fw.projection = c.bw.projection = true;
  c.fw.n_output = c.bw.n_output = 3;
  return c;
}

Case HybridAsymmetricMergedBatchMajor() {
  Case c;
  c.name = "hybrid_asym_merged_batch_major";
  c.asymmetric = true;
  c.merge = true;
  c.time_major = false;
  c.max_time = 4;
  c.n_batch = kMergedBatchMajorRows;
  c.n_input = c.n_aux = 5;
  c.cell_clip = 1.5f;
  c.proj_clip = 0.8f;
  c.fw.projection = c.bw.projection = true;
  c.fw.n_output = c.bw.n_output = 2;
  c.bw.peephole = true;
  return c;
}

Case HybridCifgAsymmetricMergedTimeMajor() {
  Case c;
  c.name = "hybrid_cifg_asym_merged_time_major";
  c.asymmetric = true;
  c.merge = true;
  c.fw.cifg = c.bw.cifg = true;
  c.fw.peephole = true;
  c.n_input = c.n_aux = 3;
  return c;
}

Case HybridCifgSymmetricSeparateBatchMajor() {
  Case c;
  c.name = "hybrid_cifg_sym_separate_batch_major";
  c.time_major = false;
  c.fw.cifg = true;
  c.fw.n_cell = c.bw.n_cell = 5;
  c.fw.n_output = c.bw.n_output = 5;
  return c;
}

Case FloatSeparateTimeMajor() {
  Case c;
  c.name = "float_separate_time_major";
  c.hybrid = false;
  c.fw.peephole = true;
  c.bw.cifg = true;
  c.fw.projection = c.bw.projection = true;
  c.fw.n_output = c.bw.n_output = 3;
  return c;
}

Case FloatMergedBatchMajor() {
  Case c;
  c.name = "float_merged_batch_major";
  c.hybrid = false;
  c.merge = true;
  c.time_major = false;
  c.n_batch = kMergedBatchMajorRows;
  c.n_input = c.n_aux = 4;
  c.cell_clip = 0.9f;
  c.fw.cifg = true;
  return c;
}

// ---- goldens: TFLite 2.12 (WASM build under node), two invokes, every output --------------

const std::vector<float> kHybridSymSeparateTimeMajor = {
    0.772426486f, -0.820204258f,  0.0508658439f,  0.716143370f,  -0.640295208f,   0.202111930f,
    1.06676269f,  -0.662754536f,  -0.0140244365f, 0.509965122f,  -0.279386252f,   0.452063680f,
    0.908338666f, -0.411212593f,  0.0929763913f,  0.421667099f,  -0.308119833f,   0.440166622f,
    0.357427001f, 0.0368067920f,  -0.515626848f,  0.313720167f,  -0.00348255038f, -0.570049882f,
    0.410810947f, -0.103153899f,  -0.379639208f,  0.0846042037f, -0.105486527f,   -0.337051690f,
    0.752159476f, -0.409792542f,  -0.401431262f,  0.503911674f,  -0.268236876f,   -0.480561107f,
    0.902033210f, -0.458994806f,  0.0777889788f,  0.621450841f,  -0.414456636f,   0.199944705f,
    0.933825850f, -0.376655430f,  0.121730089f,   0.391081065f,  -0.0120086670f,  0.608724594f,
    0.701382518f, -0.190094233f,  0.238560915f,   0.217975289f,  -0.133799255f,   0.567198515f,
    0.368710637f, 0.0648833513f,  -0.514482558f,  0.278132737f,  0.0348783135f,   -0.605451465f,
    0.385896742f, -0.0494998544f, -0.397010475f,  0.0886348188f, 0.00618329644f,  -0.406924844f,
    0.572095513f, -0.275621057f,  -0.431083441f,  0.254554451f,  -0.0249249339f,  -0.552018106f,
};

const std::vector<float> kHybridAsymMergedBatchMajor = {
    0.182955384f, -0.574038267f, 0.712340117f, -0.206230700f, 0.771086633f, -0.480260283f,
    0.513564348f, -0.251067340f, 0.391672850f, -0.685130119f, 0.631177306f, -0.212644085f,
    0.774680614f, -0.394853592f, 0.427477568f, -0.211313918f, 0.118765026f, -0.746879339f,
    0.749110341f, -0.197032809f, 0.800000012f, -0.533436418f, 0.533021271f, -0.128895491f,
    0.394745529f, -0.700841904f, 0.716356516f, -0.152257591f, 0.786099434f, -0.405066818f,
    0.656974971f, -0.155268520f,
};

const std::vector<float> kHybridCifgAsymMergedTimeMajor = {
    0.0310507845f, -0.0945654213f, -0.191731259f,   -0.0653510615f, 0.152925238f,  0.152534083f,
    0.151153192f,  -0.0912894458f, -0.00825539324f, 0.127251819f,   -0.273324013f, 0.0845939294f,
    0.0989171788f, -0.0433844365f, 0.294328541f,    -0.0642504767f, 0.106351405f,  0.0119140707f,
    -0.196522489f, -0.0987850577f, 0.0881769806f,   -0.0914636478f, 0.0998160765f, -0.121653274f,
    0.125494629f,  0.0753141269f,  -0.174938962f,   -0.129605815f,  0.129623249f,  0.123672575f,
    0.158813849f,  -0.109838970f,  0.125946775f,    0.242726162f,   -0.127057761f, -0.0253270809f,
    0.109235428f,  -0.279595643f,  0.00562314922f,  -0.0136988740f, 0.0831900313f, 0.00878556445f,
    -0.248868465f, -0.117814504f,  -0.146864429f,   0.0368698500f,  0.160880938f,  0.141796350f,
    0.0918193161f, -0.0369168110f, -0.275619566f,   -0.0908424780f, 0.209430307f,  0.129935339f,
    0.158176363f,  -0.120622650f,  0.0389323495f,   0.0506431311f,  -0.309362531f, -0.0271922927f,
    0.123665154f,  -0.0513607040f, 0.324095815f,    -0.102351330f,  0.148345068f,  0.0424032994f,
    -0.221762761f, -0.138182163f,  0.201846078f,    -0.135028750f,  0.112367935f,  -0.147896677f,
    0.194733590f,  0.0331245512f,  -0.253503770f,   -0.202756435f,  0.187927693f,  0.0307611320f,
    0.174674585f,  -0.138924927f,  0.144971430f,    0.255439222f,   -0.131336421f, -0.0675740018f,
    0.302008361f,  -0.261594057f,  0.0905853733f,   -0.0699806064f, 0.129753917f,  -0.0407843813f,
    -0.276005626f, -0.208336696f,  -0.0257370267f,  -0.0312799215f, 0.222238943f,  0.0722648054f,
};

const std::vector<float> kHybridCifgSymSeparateBatchMajor = {
    0.214011714f,   0.0395219363f,  -0.104361638f,   -0.00619117869f, 0.0192998145f,
    0.103203133f,   -0.0357287526f, -0.0143525694f,  -0.0844172463f,  0.106796242f,
    0.161499888f,   0.0702454075f,  0.137747616f,    -0.159873992f,   0.00214197906f,
    -0.0522534959f, 0.140154764f,   -0.0569516718f,  -0.104577176f,   -0.248063177f,
    0.162899688f,   0.0649874359f,  -0.172570601f,   -0.125111535f,   -0.0450410768f,
    -0.0514479876f, 0.113525644f,   -0.0587978959f,  -0.177025974f,   -0.131741226f,
    -0.0840973631f, 0.278826058f,   0.0711882263f,   -0.199950039f,   -0.101302564f,
    -0.0770648196f, 0.0957935825f,  0.176373467f,    -0.147148475f,   -0.0292988308f,
    0.0426340774f,  0.0172647126f,  0.101186007f,    0.0729839876f,   -0.0411148444f,
    -0.257808357f,  0.178357691f,   -0.217166141f,   0.0577641912f,   -0.271935284f,
    -0.152144030f,  0.209041685f,   0.00477360655f,  -0.120916672f,   -0.178146824f,
    -0.122318141f,  0.127886951f,   -0.115997143f,   -0.0439530388f,  -0.165907055f,
    0.217729166f,   0.133169860f,   -0.00274625793f, -0.0760996863f,  0.0605924949f,
    0.0920000598f,  -0.0283546969f, 0.0490888879f,   -0.138583407f,   0.116627075f,
    0.158098564f,   0.0690178648f,  0.170545980f,    -0.197921127f,   0.0353083126f,
    -0.0370071307f, 0.240284696f,   -0.101464719f,   -0.173691690f,   -0.281234413f,
    0.164341494f,   0.0963848084f,  -0.226144582f,   -0.160635650f,   -0.0590973385f,
    -0.0370504670f, 0.139042437f,   -0.0771768093f,  -0.196146786f,   -0.148896620f,
    -0.156075761f,  0.225124151f,   0.123874038f,    -0.311829507f,   -0.119862460f,
    -0.138476938f,  0.0621804409f,  0.239697382f,    -0.311743826f,   -0.0574852265f,
    -0.151596814f,  0.143566683f,   0.148990750f,    -0.197414741f,   -0.0809949189f,
    -0.330573887f,  0.174772516f,   -0.262302428f,   -0.0366353691f,  -0.324289560f,
    -0.236529171f,  0.250071287f,   -0.0746108666f,  -0.188096955f,   -0.253663927f,
    -0.282496423f,  0.229276538f,   -0.244542792f,   -0.0942381471f,  -0.294998556f,
};

const std::vector<float> kFloatSeparateTimeMajor = {
    0.550410867f, -0.442776859f,  0.206627309f,  0.537801862f, -0.543077350f,  0.0976477712f,
    0.600053251f, -0.503245950f,  0.124581233f,  0.544251800f, -0.503802061f,  0.156268924f,
    0.584091127f, -0.523858428f,  0.128611743f,  0.477389038f, -0.567195296f,  0.111416265f,
    0.407682270f, -0.140054137f,  -0.219542727f, 0.490332574f, -0.0820077732f, -0.328181058f,
    0.416307122f, -0.0644038245f, -0.200111687f, 0.406761050f, -0.0434398204f, -0.210560009f,
    0.408821434f, 0.0134202614f,  -0.163276255f, 0.465277702f, 0.0254541636f,  -0.261743695f,
    0.654733777f, -0.494265914f,  0.105139166f,  0.555702329f, -0.616883516f,  0.00392797589f,
    0.645991802f, -0.522892237f,  0.0810456872f, 0.541628361f, -0.530869901f,  0.126402020f,
    0.604541302f, -0.528762102f,  0.111046761f,  0.477579921f, -0.576573253f,  0.101691008f,
    0.406607866f, -0.160660714f,  -0.228676856f, 0.500936985f, -0.107790545f,  -0.356263667f,
    0.412781656f, -0.112511620f,  -0.217044845f, 0.411795676f, -0.0587742627f, -0.230968639f,
    0.401368320f, -0.110161684f,  -0.200850248f, 0.487018287f, -0.0371638238f, -0.322593480f,
};

const std::vector<float> kFloatMergedBatchMajor = {
    -0.0352594964f,  0.0656888112f,  0.100290924f,   0.144334614f,  0.00404265616f, 0.194438651f,
    -0.151564181f,   0.201618776f,   -0.0971290469f, 0.0821447968f, 0.0421669558f,  0.000440833595f,
    0.0665226355f,   0.0860458016f,  -0.170023978f,  0.195019290f,  -0.170241728f,  -0.223317966f,
    -0.00882482342f, -0.204295978f,  0.0510266311f,  0.114210635f,  0.0167111978f,  0.0614240319f,
    -0.155111089f,   -0.0127955526f, 0.109294303f,   0.0594691746f, 0.0107569722f,  0.216818765f,
    -0.174899563f,   0.258367777f,   -0.160142779f,  0.0281135160f, 0.0358842462f,  -0.0395880453f,
    0.0759740919f,   0.133313075f,   -0.203807414f,  0.305028051f,  -0.202881068f,  -0.251370728f,
    -0.0120060313f,  -0.218398958f,  0.0640884861f,  0.249755874f,  -0.0989360958f, 0.176085413f,
};

TEST(Nn_BidiLstmAuxGolden, HybridSymmetricSeparateTimeMajor) {
  ExpectGolden(HybridSymmetricSeparateTimeMajor(), kHybridSymSeparateTimeMajor);
}

TEST(Nn_BidiLstmAuxGolden, HybridAsymmetricMergedBatchMajor) {
  ExpectGolden(HybridAsymmetricMergedBatchMajor(), kHybridAsymMergedBatchMajor);
}

TEST(Nn_BidiLstmAuxGolden, HybridCifgAsymmetricMergedTimeMajor) {
  ExpectGolden(HybridCifgAsymmetricMergedTimeMajor(), kHybridCifgAsymMergedTimeMajor);
}

TEST(Nn_BidiLstmAuxGolden, HybridCifgSymmetricSeparateBatchMajor) {
  ExpectGolden(HybridCifgSymmetricSeparateBatchMajor(), kHybridCifgSymSeparateBatchMajor);
}

TEST(Nn_BidiLstmAuxGolden, FloatSeparateTimeMajor) {
  ExpectGolden(FloatSeparateTimeMajor(), kFloatSeparateTimeMajor);
}

TEST(Nn_BidiLstmAuxGolden, FloatMergedBatchMajor) {
  ExpectGolden(FloatMergedBatchMajor(), kFloatMergedBatchMajor);
}

// ---- prepare's refusals of aux weights a hybrid node cannot take -------------------------

void ExpectRefused(const Case& c, const std::string& what) {
  std::vector<float> x, a;
  MakeInputs(c, &x, &a);
  const Run r = RunOctet(BuildModel(c), x, a);
  EXPECT_NE(r.status, kTfLiteOk);
  EXPECT_NE(r.log.find(what), std::string::npos) << r.log;
}

TEST(Nn_BidiLstmAuxGolden, HybridAuxWeightRefusals) {
  const std::string op = "BIDIRECTIONAL_SEQUENCE_LSTM: ";
  Case c = HybridSymmetricSeparateTimeMajor();
  c.tweak_aux = [](format::TensorSpec* s) {
    s->type = tflite::TensorType_FLOAT32;
    s->quantization.reset();
  };
  ExpectRefused(c, op + "fw_aux_input_to_forget_weights must be INT8 like the cell's weights, "
                        "got FLOAT32");
  c.tweak_aux = nullptr;
  c.aux_weights_constant = false;
  ExpectRefused(c, op + "fw_aux_input_to_forget_weights must be constant in a hybrid LSTM");
  c.aux_weights_constant = true;
  c.tweak_aux = [](format::TensorSpec* s) {
    s->quantization->scale = {0.01f, 0.02f, 0.03f, 0.04f};
  };
  ExpectRefused(c, op + "fw_aux_input_to_forget_weights has 4 different scales");
  c.tweak_aux = [](format::TensorSpec* s) { s->quantization->zero_point = {3}; };
  ExpectRefused(c, op + "INT8 weights of a hybrid op must be symmetric (zero point 3)");
  c.tweak_aux = [](format::TensorSpec* s) { s->quantization->scale = {0.f}; };
  ExpectRefused(c, op + "fw_aux_input_to_forget_weights scale must be finite and > 0, got 0");
  c.tweak_aux = [](format::TensorSpec* s) { s->quantization.reset(); };
  ExpectRefused(c, op + "INT8 weights of a hybrid op need quantization scales");
}

}  // namespace
}  // namespace octet
