// Errors inside the C++ core are exceptions carrying a status; src/api.cpp turns them into a
// returned status plus the thread's last-error message. Nothing here may be thrown across extern "C".
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "sddmm.h"

namespace sddmm {

class Error : public std::runtime_error {
 public:
  Error(sddmm_status_t status, const std::string& message) : std::runtime_error(message), status_(status) {}
  sddmm_status_t status() const { return status_; }

 private:
  sddmm_status_t status_;
};

// Concatenates anything streamable into one message: str("col_idx[", p, "] = ", v).
template <typename... Parts>
std::string str(Parts&&... parts) {
  std::ostringstream out;
  (out << ... << std::forward<Parts>(parts));
  return out.str();
}

template <typename... Parts>
[[noreturn]] void fail(sddmm_status_t status, Parts&&... parts) {
  throw Error(status, str(std::forward<Parts>(parts)...));
}

// The calling thread's last-error message.
void set_last_error(const std::string& message) noexcept;
const char* last_error() noexcept;

}  // namespace sddmm
