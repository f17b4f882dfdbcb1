// The harness's oracle for one call: while building the arguments it notes each thing that makes the
// call invalid; the library must then fail (and touch no output), and must succeed otherwise.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "sddmm.h"

namespace sddmm::fuzz {

// A bug: print what and abort, which libFuzzer records as a crash with the input that caused it.
[[noreturn]] inline void finding(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::fputs("fuzz finding: ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
  std::abort();
}

class Verdict {
 public:
  // Records the first reason the call must fail.
  void invalid(bool condition, const char* reason) {
    if (condition && reason_ == nullptr) reason_ = reason;
  }
  bool must_fail() const { return reason_ != nullptr; }

  // The status agrees with the verdict, is a known one, and is never INTERNAL_ERROR.
  void check(sddmm_status_t s, const char* call) const {
    if (s < SDDMM_STATUS_SUCCESS || s > SDDMM_STATUS_INTERNAL_ERROR)
      finding("%s returned unknown status %d", call, int(s));
    if (s == SDDMM_STATUS_INTERNAL_ERROR) finding("%s: INTERNAL_ERROR: %s", call, sddmm_last_error());
    if (must_fail() && s == SDDMM_STATUS_SUCCESS) finding("%s succeeded although %s", call, reason_);
    if (!must_fail() && s != SDDMM_STATUS_SUCCESS) {
      finding("%s failed on valid input: %s: %s", call, sddmm_status_string(s), sddmm_last_error());
    }
    if (s != SDDMM_STATUS_SUCCESS && std::strlen(sddmm_last_error()) == 0) finding("%s failed without a message", call);
  }

 private:
  const char* reason_ = nullptr;
};

}  // namespace sddmm::fuzz
