// Sets an environment variable (a tuning override that plan creation reads) for the life of a scope,
// and unsets it when the scope ends, also when a failed check leaves the scope by an exception: a
// test's override never leaks into the next test.
#pragma once

#include <cstdlib>

namespace sddmm::test {

class ScopedEnv {
 public:
  // Sets name to value; given a null value, leaves the environment alone.
  ScopedEnv(const char* name, const char* value) : name_(value != nullptr ? name : nullptr) {
    if (name_ != nullptr) setenv(name_, value, 1);
  }
  ~ScopedEnv() {
    if (name_ != nullptr) unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

}  // namespace sddmm::test
