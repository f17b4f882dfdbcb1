#include "core/error.hpp"

#include <cstring>

namespace sddmm {
namespace {

// A fixed buffer, so that recording an error can never itself fail by allocating.
constexpr size_t kMaxMessage = 1024;
thread_local char t_last_error[kMaxMessage] = "";

}  // namespace

void set_last_error(const std::string& message) noexcept {
  const size_t n = message.size() < kMaxMessage - 1 ? message.size() : kMaxMessage - 1;
  std::memcpy(t_last_error, message.data(), n);
  t_last_error[n] = '\0';
}

const char* last_error() noexcept { return t_last_error; }

}  // namespace sddmm
