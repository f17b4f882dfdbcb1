#include "pattern.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace sddmm::huge {
namespace {

// x^-1 mod m by the extended Euclidean algorithm; throws unless gcd(x, m) = 1.
int64_t inverse_mod(int64_t x, int64_t m) {
  int64_t t = 0, next_t = 1, r = m, next_r = x % m;
  while (next_r != 0) {
    const int64_t q = r / next_r;
    t = std::exchange(next_t, t - q * next_t);
    r = std::exchange(next_r, r - q * next_r);
  }
  if (r != 1) throw std::logic_error("huge check: a band's b is not invertible mod m");
  return t < 0 ? t + m : t;
}

int64_t modulo(int64_t x, int64_t m) {
  return ((x % m) + m) % m;
}

}  // namespace

LaidOut::LaidOut(Pattern p, int64_t max_nnz) : pattern(p), offsets{0} {
  for (int64_t r = 0; r < pattern.rows && offsets.back() < max_nnz; ++r) {
    offsets.push_back(std::min(offsets.back() + pattern.length(r), max_nnz));
  }
  pattern.rows = static_cast<int64_t>(offsets.size()) - 1;
}

int64_t LaidOut::row_of(int64_t entry) const {
  return std::upper_bound(offsets.begin(), offsets.end(), entry) - offsets.begin() - 1;
}

std::vector<int64_t> LaidOut::columns_of_row(int64_t r) const {
  std::vector<int64_t> columns;
  for (int64_t j = 0; j < offsets[r + 1] - offsets[r]; ++j) columns.push_back(pattern.column(r, j));
  return columns;
}

// For each kind whose band holds c and each j a row of that kind can reach: the rows r with
// a * j + b * r = c - base (mod m), that is r = (c - base - a * j) / b (mod m), and every r + m,
// r + 2m, ... below rows; an entry when r is of that kind and has more than j entries.
std::vector<int64_t> LaidOut::rows_of_column(int64_t c) const {
  std::vector<int64_t> rows;
  for (const RowKind* kind : {&pattern.heavy, &pattern.light}) {
    const Band& band = kind->band;
    if (c < band.base || c >= band.base + band.m) continue;
    const int64_t inverse_b = inverse_mod(band.b, band.m);
    const int64_t longest = kind->min_length + kind->length_spread - 1;
    for (int64_t j = 0; j < longest; ++j) {
      const int64_t first = modulo(modulo(c - band.base - band.a * (j % band.m), band.m) * inverse_b, band.m);
      for (int64_t r = first; r < pattern.rows; r += band.m) {
        if (&pattern.kind(r) == kind && j < offsets[r + 1] - offsets[r]) rows.push_back(r);
      }
    }
  }
  return rows;
}

}  // namespace sddmm::huge
