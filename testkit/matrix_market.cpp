#include "matrix_market.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sddmm::testkit {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

[[noreturn]] void malformed(const std::string& path, int64_t line, const std::string& what) {
  throw std::runtime_error(path + ":" + std::to_string(line) + ": " + what);
}

}  // namespace

CooMatrix read_matrix_market(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::string line;
  int64_t line_no = 1;
  if (!std::getline(in, line)) malformed(path, line_no, "empty file");
  std::istringstream banner(line);
  std::string tag, object, format, field, symmetry;
  banner >> tag >> object >> format >> field >> symmetry;
  if (tag != "%%MatrixMarket") malformed(path, line_no, "missing %%MatrixMarket banner");
  object = lower(object), format = lower(format), field = lower(field), symmetry = lower(symmetry);
  if (object != "matrix" || format != "coordinate") malformed(path, line_no, "only 'matrix coordinate' is supported");
  const bool pattern = field == "pattern";
  if (!pattern && field != "real" && field != "integer" && field != "double") {
    malformed(path, line_no, "field '" + field + "' is not supported (real, integer, pattern are)");
  }
  const bool symmetric = symmetry == "symmetric";
  const bool skew = symmetry == "skew-symmetric";
  if (!symmetric && !skew && symmetry != "general") {
    malformed(path, line_no, "symmetry '" + symmetry + "' is not supported (general, symmetric, skew-symmetric are)");
  }

  // Size line: first line that is not a comment or blank.
  int64_t rows = -1, cols = -1, entries = -1;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '%') continue;
    std::istringstream size(line);
    if (!(size >> rows >> cols >> entries) || rows < 0 || cols < 0 || entries < 0) malformed(path, line_no, "bad size line");
    break;
  }
  if (entries < 0) malformed(path, line_no, "missing size line");

  CooMatrix m;
  m.rows = rows;
  m.cols = cols;
  const size_t reserve = static_cast<size_t>(symmetric || skew ? 2 * entries : entries);
  m.row.reserve(reserve);
  m.col.reserve(reserve);
  if (!pattern) m.val.reserve(reserve);
  int64_t seen = 0;
  while (seen < entries && std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '%') continue;
    std::istringstream entry(line);
    int64_t i = 0, j = 0;
    double v = 1.0;
    if (!(entry >> i >> j) || (!pattern && !(entry >> v))) malformed(path, line_no, "bad entry");
    if (i < 1 || i > rows || j < 1 || j > cols) malformed(path, line_no, "index out of range (indices are 1-based)");
    m.row.push_back(i - 1);
    m.col.push_back(j - 1);
    if (!pattern) m.val.push_back(v);
    if ((symmetric || skew) && i != j) {
      m.row.push_back(j - 1);
      m.col.push_back(i - 1);
      if (!pattern) m.val.push_back(skew ? -v : v);
    }
    ++seen;
  }
  if (seen != entries) malformed(path, line_no, "expected " + std::to_string(entries) + " entries, found " + std::to_string(seen));
  return m;
}

}  // namespace sddmm::testkit
