/* Octet: the TFLite kernel/delegate C ABI (TfLiteContext, TfLiteNode, TfLiteTensor,
 * TfLiteRegistration, TfLiteDelegate ...). Names and meanings follow TensorFlow Lite so
 * that kernels and delegates written for it compile unchanged against Octet. */
#ifndef TENSORFLOW_LITE_C_COMMON_H_
#define TENSORFLOW_LITE_C_COMMON_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TfLiteStatus {
  kTfLiteOk = 0,
  kTfLiteError = 1,
  kTfLiteDelegateError = 2,
  kTfLiteApplicationError = 3,
  kTfLiteDelegateDataNotFound = 4,
  kTfLiteDelegateDataWriteError = 5,
  kTfLiteDelegateDataReadError = 6,
  kTfLiteUnresolvedOps = 7,
  kTfLiteCancelled = 8,
} TfLiteStatus;

/* Element types. The numbering is TFLite's C numbering, not the schema's TensorType. */
typedef enum {
  kTfLiteNoType = 0,
  kTfLiteFloat32 = 1,
  kTfLiteInt32 = 2,
  kTfLiteUInt8 = 3,
  kTfLiteInt64 = 4,
  kTfLiteString = 5,
  kTfLiteBool = 6,
  kTfLiteInt16 = 7,
  kTfLiteComplex64 = 8,
  kTfLiteInt8 = 9,
  kTfLiteFloat16 = 10,
  kTfLiteFloat64 = 11,
  kTfLiteComplex128 = 12,
  kTfLiteUInt64 = 13,
  kTfLiteResource = 14,
  kTfLiteVariant = 15,
  kTfLiteUInt32 = 16,
  kTfLiteUInt16 = 17,
  kTfLiteInt4 = 18,
  kTfLiteBFloat16 = 19,
} TfLiteType;

const char* TfLiteTypeGetName(TfLiteType type);

/* Marks an absent optional input in TfLiteNode::inputs. */
#define kTfLiteOptionalTensor (-1)

/* Fixed-size int array with its elements stored inline after the size. */
typedef struct TfLiteIntArray {
  int size;
  int data[]; /* flexible array member (a GCC/Clang extension in C++) */
} TfLiteIntArray;

size_t TfLiteIntArrayGetSizeInBytes(int size);
TfLiteIntArray* TfLiteIntArrayCreate(int size);
int TfLiteIntArrayEqual(const TfLiteIntArray* a, const TfLiteIntArray* b);
int TfLiteIntArrayEqualsArray(const TfLiteIntArray* a, int b_size, const int b_data[]);
TfLiteIntArray* TfLiteIntArrayCopy(const TfLiteIntArray* src);
void TfLiteIntArrayFree(TfLiteIntArray* a);

typedef struct TfLiteFloatArray {
  int size;
  float data[];
} TfLiteFloatArray;

int TfLiteFloatArrayGetSizeInBytes(int size);
TfLiteFloatArray* TfLiteFloatArrayCreate(int size);
TfLiteFloatArray* TfLiteFloatArrayCopy(const TfLiteFloatArray* src);
void TfLiteFloatArrayFree(TfLiteFloatArray* a);

/* Error-checking helpers used by kernels. They report through the context and return. */
#define TF_LITE_KERNEL_LOG(context, ...)            \
  do {                                              \
    (context)->ReportError((context), __VA_ARGS__); \
  } while (0)

#define TF_LITE_MAYBE_KERNEL_LOG(context, ...)        \
  do {                                                \
    if ((context) != NULL) {                          \
      (context)->ReportError((context), __VA_ARGS__); \
    }                                                 \
  } while (0)

#define TF_LITE_ENSURE_MSG(context, value, msg)        \
  do {                                                 \
    if (!(value)) {                                    \
      TF_LITE_KERNEL_LOG((context), __FILE__ " " msg); \
      return kTfLiteError;                             \
    }                                                  \
  } while (0)

#define TF_LITE_ENSURE(context, a)                                                     \
  do {                                                                                 \
    if (!(a)) {                                                                        \
      TF_LITE_KERNEL_LOG((context), "%s:%d %s was not true.", __FILE__, __LINE__, #a); \
      return kTfLiteError;                                                             \
    }                                                                                  \
  } while (0)

#define TF_LITE_ENSURE_STATUS(a) \
  do {                           \
    const TfLiteStatus s = (a);  \
    if (s != kTfLiteOk) {        \
      return s;                  \
    }                            \
  } while (0)

#define TF_LITE_ENSURE_EQ(context, a, b)                                                     \
  do {                                                                                       \
    if ((a) != (b)) {                                                                        \
      TF_LITE_KERNEL_LOG((context), "%s:%d %s != %s (%d != %d)", __FILE__, __LINE__, #a, #b, \
                         (int)(a), (int)(b));                                                \
      return kTfLiteError;                                                                   \
    }                                                                                        \
  } while (0)

#define TF_LITE_ENSURE_TYPES_EQ(context, a, b)                                               \
  do {                                                                                       \
    if ((a) != (b)) {                                                                        \
      TF_LITE_KERNEL_LOG((context), "%s:%d %s != %s (%s != %s)", __FILE__, __LINE__, #a, #b, \
                         TfLiteTypeGetName(a), TfLiteTypeGetName(b));                        \
      return kTfLiteError;                                                                   \
    }                                                                                        \
  } while (0)

#define TF_LITE_ENSURE_NEAR(context, a, b, epsilon)                                                \
  do {                                                                                             \
    double delta = ((a) > (b)) ? ((a) - (b)) : ((b) - (a));                                        \
    if (delta > epsilon) {                                                                         \
      TF_LITE_KERNEL_LOG((context), "%s:%d %s not near %s (%f != %f)", __FILE__, __LINE__, #a, #b, \
                         (double)(a), (double)(b));                                                \
      return kTfLiteError;                                                                         \
    }                                                                                              \
  } while (0)

#define TF_LITE_ENSURE_OK(context, status) \
  do {                                     \
    const TfLiteStatus s = (status);       \
    if ((s) != kTfLiteOk) {                \
      return s;                            \
    }                                      \
  } while (0)

typedef struct TfLiteComplex64 {
  float re, im;
} TfLiteComplex64;

typedef struct TfLiteComplex128 {
  double re, im;
} TfLiteComplex128;

typedef struct TfLiteFloat16 {
  uint16_t data;
} TfLiteFloat16;

typedef struct TfLiteBFloat16 {
  uint16_t data;
} TfLiteBFloat16;

/* Legacy per-tensor quantization: real = scale * (q - zero_point). */
typedef struct TfLiteQuantizationParams {
  float scale;
  int32_t zero_point;
} TfLiteQuantizationParams;

typedef enum TfLiteQuantizationType {
  kTfLiteNoQuantization = 0,
  kTfLiteAffineQuantization = 1,
  /* As TFLite declares them; Octet's InterpreterBuilder refuses models that use them. */
  kTfLiteBlockwiseQuantization = 2,
  kTfLiteMultiAxisQuantization = 3,
} TfLiteQuantizationType;

typedef struct TfLiteQuantization {
  TfLiteQuantizationType type;
  /* Points at the TfLite*Quantization struct its type names (malloc'd, owned: freed by
     TfLiteQuantizationFree). */
  void* params;
} TfLiteQuantization;

/* Per-tensor (one scale) or per-axis (one scale per slice of quantized_dimension). */
typedef struct TfLiteAffineQuantization {
  TfLiteFloatArray* scale;
  TfLiteIntArray* zero_point;
  int32_t quantized_dimension;
} TfLiteAffineQuantization;

/* Scales (and zero points, or -1) per block of `blocksize` elements along quantized_dimension,
   held in other tensors of the subgraph (their indices). */
typedef struct TfLiteBlockwiseQuantization {
  int32_t scale;
  int32_t zero_point;
  int32_t blocksize;
  int32_t quantized_dimension;
} TfLiteBlockwiseQuantization;

/* Blockwise along several dimensions: scale and zero-point tensor indices, the block size and
   the quantized dimensions (owned). */
typedef struct TfLiteMultiAxisQuantization {
  int32_t scales;
  int32_t zero_points;
  int32_t blocksize;
  TfLiteIntArray* quantized_dimensions;
} TfLiteMultiAxisQuantization;

typedef union TfLitePtrUnion {
  int32_t* i32;
  uint32_t* u32;
  int64_t* i64;
  uint64_t* u64;
  float* f;
  TfLiteFloat16* f16;
  TfLiteBFloat16* bf16;
  double* f64;
  char* raw;
  const char* raw_const;
  uint8_t* uint8;
  bool* b;
  int16_t* i16;
  uint16_t* ui16;
  TfLiteComplex64* c64;
  TfLiteComplex128* c128;
  int8_t* int8;
  void* data;
} TfLitePtrUnion;

/* Where a tensor's bytes live. */
typedef enum TfLiteAllocationType {
  kTfLiteMemNone = 0,
  kTfLiteMmapRo,            /* constant, points into the model file */
  kTfLiteArenaRw,           /* planned into the activation arena */
  kTfLiteArenaRwPersistent, /* planned into the persistent arena (variables) */
  kTfLiteDynamic,           /* heap allocation sized at eval time */
  kTfLitePersistentRo,      /* computed once in prepare, then read-only */
  kTfLiteCustom,            /* owned by someone else (e.g. a delegate) */
  kTfLiteVariantObject,
} TfLiteAllocationType;

typedef int TfLiteBufferHandle;
enum { kTfLiteNullBufferHandle = -1 };

typedef enum TfLiteDimensionType {
  kTfLiteDimDense = 0,
  kTfLiteDimSparseCSR,
} TfLiteDimensionType;

typedef struct TfLiteDimensionMetadata {
  TfLiteDimensionType format;
  int dense_size;
  TfLiteIntArray* array_segments;
  TfLiteIntArray* array_indices;
} TfLiteDimensionMetadata;

typedef struct TfLiteSparsity {
  TfLiteIntArray* traversal_order;
  TfLiteIntArray* block_map;
  TfLiteDimensionMetadata* dim_metadata;
  int dim_metadata_size;
} TfLiteSparsity;

struct TfLiteDelegate;

typedef struct TfLiteTensor {
  TfLiteType type;
  TfLitePtrUnion data;
  TfLiteIntArray* dims;
  /* Per-tensor view of the quantization (first scale / zero point). */
  TfLiteQuantizationParams params;
  TfLiteAllocationType allocation_type;
  size_t bytes;
  const void* allocation;
  const char* name;
  struct TfLiteDelegate* delegate;
  TfLiteBufferHandle buffer_handle;
  bool data_is_stale;
  bool is_variable;
  TfLiteQuantization quantization;
  TfLiteSparsity* sparsity;
  /* Shape with -1 for unknown dimensions, as written in the model (may be NULL). */
  const TfLiteIntArray* dims_signature;
} TfLiteTensor;

/* Light-weight tensor view used by micro-style kernels. */
typedef struct TfLiteEvalTensor {
  TfLitePtrUnion data;
  TfLiteIntArray* dims;
  TfLiteType type;
} TfLiteEvalTensor;

typedef struct TfLiteNode {
  TfLiteIntArray* inputs;
  TfLiteIntArray* outputs;
  TfLiteIntArray* intermediates;
  /* Scratch tensors requested by the kernel in prepare; planned per node. */
  TfLiteIntArray* temporaries;
  /* Whatever the registration's init returned. */
  void* user_data;
  /* The op's parsed builtin options (a TfLite*Params struct), or NULL. */
  void* builtin_data;
  /* Custom ops: the raw custom_options bytes from the model. */
  const void* custom_initial_data;
  int custom_initial_data_size;
  struct TfLiteDelegate* delegate;
  bool might_have_side_effect;
} TfLiteNode;

typedef enum TfLiteExternalContextType {
  kTfLiteEigenContext = 0,
  kTfLiteGemmLowpContext = 1,
  kTfLiteEdgeTpuContext = 2,
  kTfLiteCpuBackendContext = 3,
  kTfLiteMaxExternalContexts = 4
} TfLiteExternalContextType;

struct TfLiteContext;
struct TfLiteRegistration;

typedef struct TfLiteExternalContext {
  TfLiteExternalContextType type;
  TfLiteStatus (*Refresh)(struct TfLiteContext* context);
} TfLiteExternalContext;

/* Handed to a delegate kernel's init: the nodes it replaces and its boundary tensors. */
typedef struct TfLiteDelegateParams {
  struct TfLiteDelegate* delegate;
  TfLiteIntArray* nodes_to_replace;
  TfLiteIntArray* input_tensors;
  TfLiteIntArray* output_tensors;
} TfLiteDelegateParams;

typedef struct TfLiteContext {
  size_t tensors_size;

  TfLiteStatus (*GetExecutionPlan)(struct TfLiteContext* context, TfLiteIntArray** execution_plan);

  TfLiteTensor* tensors;

  /* The runtime's private state (the owning Subgraph). */
  void* impl_;

  /* Takes ownership of new_size. */
  TfLiteStatus (*ResizeTensor)(struct TfLiteContext*, TfLiteTensor* tensor,
                               TfLiteIntArray* new_size);

  void (*ReportError)(struct TfLiteContext*, const char* msg, ...);

  TfLiteStatus (*AddTensors)(struct TfLiteContext*, int tensors_to_add,
                             int* first_new_tensor_index);

  TfLiteStatus (*GetNodeAndRegistration)(struct TfLiteContext*, int node_index, TfLiteNode** node,
                                         struct TfLiteRegistration** registration);

  TfLiteStatus (*ReplaceNodeSubsetsWithDelegateKernels)(struct TfLiteContext*,
                                                        struct TfLiteRegistration registration,
                                                        const TfLiteIntArray* nodes_to_replace,
                                                        struct TfLiteDelegate* delegate);

  int recommended_num_threads;

  TfLiteExternalContext* (*GetExternalContext)(struct TfLiteContext*, TfLiteExternalContextType);
  void (*SetExternalContext)(struct TfLiteContext*, TfLiteExternalContextType,
                             TfLiteExternalContext*);

  bool allow_fp32_relax_to_fp16;

  void* profiler;

  /* Memory that lives as long as the interpreter (freed with it). */
  void* (*AllocatePersistentBuffer)(struct TfLiteContext* ctx, size_t bytes);

  TfLiteStatus (*AllocateBufferForEval)(struct TfLiteContext* ctx, size_t bytes, void** ptr);

  TfLiteStatus (*RequestScratchBufferInArena)(struct TfLiteContext* ctx, size_t bytes,
                                              int* buffer_idx);

  void* (*GetScratchBuffer)(struct TfLiteContext* ctx, int buffer_idx);

  TfLiteStatus (*ResizeTensorExplicit)(struct TfLiteContext* ctx, TfLiteTensor* tensor, int dims,
                                       const int* shape);

  TfLiteStatus (*PreviewDelegatePartitioning)(struct TfLiteContext* context,
                                              const TfLiteIntArray* nodes_to_replace,
                                              TfLiteDelegateParams** partition_params_array,
                                              int* num_partitions);

  TfLiteTensor* (*GetTensor)(const struct TfLiteContext* context, int tensor_idx);

  TfLiteEvalTensor* (*GetEvalTensor)(const struct TfLiteContext* context, int tensor_idx);

  TfLiteStatus (*GetModelMetadata)(const struct TfLiteContext* context, const char* name,
                                   const char** ptr, size_t* bytes);
} TfLiteContext;

typedef struct TfLiteRegistration {
  /* Called once per node when it is added; returns the node's user_data. For builtin ops
   * `buffer` is the parsed params struct, for custom ops the custom_options bytes, for
   * delegate kernels a TfLiteDelegateParams*. */
  void* (*init)(TfLiteContext* context, const char* buffer, size_t length);
  /* Releases what init returned. */
  void (*free)(TfLiteContext* context, void* buffer);
  /* Validates inputs and resizes outputs; runs again whenever input shapes change. */
  TfLiteStatus (*prepare)(TfLiteContext* context, TfLiteNode* node);
  /* Computes the outputs. */
  TfLiteStatus (*invoke)(TfLiteContext* context, TfLiteNode* node);
  const char* (*profiling_string)(const TfLiteContext* context, const TfLiteNode* node);
  int32_t builtin_code;
  const char* custom_name;
  int version;
  void* registration_external;
  void* async_kernel;
  uint64_t inplace_operator;
} TfLiteRegistration;

typedef enum TfLiteDelegateFlags {
  kTfLiteDelegateFlagsNone = 0,
  kTfLiteDelegateFlagsAllowDynamicTensors = 1,
  kTfLiteDelegateFlagsRequirePropagatedShapes = 2,
  kTfLiteDelegateFlagsPerOperatorProfiling = 4
} TfLiteDelegateFlags;

typedef struct TfLiteDelegate {
  void* data_;
  /* Called by ModifyGraphWithDelegate: inspect the plan and replace node subsets. */
  TfLiteStatus (*Prepare)(TfLiteContext* context, struct TfLiteDelegate* delegate);
  TfLiteStatus (*CopyFromBufferHandle)(TfLiteContext* context, struct TfLiteDelegate* delegate,
                                       TfLiteBufferHandle buffer_handle, TfLiteTensor* tensor);
  TfLiteStatus (*CopyToBufferHandle)(TfLiteContext* context, struct TfLiteDelegate* delegate,
                                     TfLiteBufferHandle buffer_handle, TfLiteTensor* tensor);
  void (*FreeBufferHandle)(TfLiteContext* context, struct TfLiteDelegate* delegate,
                           TfLiteBufferHandle* handle);
  int64_t flags;
} TfLiteDelegate;

TfLiteDelegate TfLiteDelegateCreate(void);

/* Size in bytes of one element of `type`; 0 for variable-size or unknown types. */
size_t TfLiteTypeGetSize(TfLiteType type);

void TfLiteQuantizationFree(TfLiteQuantization* quantization);
void TfLiteSparsityFree(TfLiteSparsity* sparsity);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_LITE_C_COMMON_H_ */
