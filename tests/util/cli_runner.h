// Runs the built octet CLI ($OCTET_CLI, else the build tree's) as a user would: its exit code
// and everything it printed, stdout and stderr together.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace octet::testing {

struct CliResult {
  int code = -1;
  std::string output;
};

inline CliResult RunOctetCli(const std::string& args) {
  const char* cli = std::getenv("OCTET_CLI");
  const std::string path = cli ? cli : OCTET_BINARY_DIR "/octet";
  CliResult r;
  FILE* p = popen((path + " " + args + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  while (fgets(buf, sizeof buf, p)) r.output += buf;
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

// A new directory under /tmp whose name starts with `prefix`.
inline std::string MakeTempDir(const std::string& prefix) {
  std::string pattern = "/tmp/" + prefix + "_XXXXXX";
  return mkdtemp(pattern.data());
}

}  // namespace octet::testing
