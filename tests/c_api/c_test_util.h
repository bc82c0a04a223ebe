/* Helpers shared by the C programs of the C API tests (plain C11). */
#ifndef OCTET_TESTS_C_API_C_TEST_UTIL_H_
#define OCTET_TESTS_C_API_C_TEST_UTIL_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exit code CTest reads as "skipped" (SKIP_RETURN_CODE 77). */
#define OCTET_TEST_SKIP 77

/* The corpus directory: $OCTET_MODELS, else the default the build passes on the command line. */
static inline const char* ModelsDir(int argc, char** argv) {
  const char* env = getenv("OCTET_MODELS");
  if (env != NULL && env[0] != '\0') return env;
  return argc > 1 ? argv[1] : "../shared/models";
}

static inline int FileExists(const char* path) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return 0;
  fclose(f);
  return 1;
}

/* Reads a whole file; NULL on failure. The caller frees. */
static inline unsigned char* ReadFile(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return NULL;
  unsigned char* data = NULL;
  long n = -1;
  if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
  if (n >= 0 && fseek(f, 0, SEEK_SET) == 0) {
    data = (unsigned char*)malloc(n > 0 ? (size_t)n : 1);
    if (data != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
      free(data);
      data = NULL;
    }
  }
  fclose(f);
  if (data != NULL) *size = (size_t)n;
  return data;
}

/* A NumPy .npy file: the whole file, and where its array bytes start. */
typedef struct NpyArray {
  unsigned char* file;
  const unsigned char* data;
  size_t bytes;
} NpyArray;

/* Loads a .npy (format 1.x-3.x); returns 0 and fills `out`, or -1 with a message. */
static inline int ReadNpy(const char* path, NpyArray* out) {
  size_t size = 0;
  unsigned char* file = ReadFile(path, &size);
  if (file == NULL) {
    fprintf(stderr, "cannot read %s\n", path);
    return -1;
  }
  size_t header_end = 0;
  if (size >= 10 && memcmp(file, "\x93NUMPY", 6) == 0) {
    if (file[6] == 1) {
      header_end = 10 + (size_t)(file[8] | (file[9] << 8));
    } else if (size >= 12) {
      header_end = 12 + ((size_t)file[8] | ((size_t)file[9] << 8) | ((size_t)file[10] << 16) |
                         ((size_t)file[11] << 24));
    }
  }
  if (header_end == 0 || header_end > size) {
    fprintf(stderr, "%s is not a .npy file\n", path);
    free(file);
    return -1;
  }
  out->file = file;
  out->data = file + header_end;
  out->bytes = size - header_end;
  return 0;
}

#endif /* OCTET_TESTS_C_API_C_TEST_UTIL_H_ */
