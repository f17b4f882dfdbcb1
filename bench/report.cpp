#include "report.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "bytes_model.hpp"
#include "precision.hpp"

namespace sddmm::bench {
namespace {

// Targets of issue 3, printed beside the measured numbers.
struct Target {
  double geomean;
  double each;
};
Target target_of(const std::string& op) { return op == "sddmm" ? Target{2.0, 1.1} : Target{1.5, 1.0}; }
constexpr double kPlanRatioTarget = 3.0;       // plan creation <= 3 SDDMM executes ...
constexpr int64_t kPlanRatioK = 256;           // ... at K = 256 ...
constexpr int64_t kPlanRatioMinNnz = 1000000;  // ... for nnz >= 1M

std::string format(const char* fmt, double value) {
  if (std::isnan(value)) return "-";
  char text[64];
  std::snprintf(text, sizeof text, fmt, value);
  return text;
}

// Geometric mean and worst of a ratio over matrices; values that are not finite are left out.
struct Ratio {
  double log_sum = 0;
  int count = 0;
  double worst = INFINITY;
  std::string worst_matrix;

  void add(double value, const std::string& matrix) {
    if (!std::isfinite(value)) return;
    log_sum += std::log(value);
    ++count;
    if (value < worst) {
      worst = value;
      worst_matrix = matrix;
    }
  }
  double geomean() const { return std::exp(log_sum / count); }
  std::string geomean_text() const { return count == 0 ? "-" : format("%.3fx", geomean()); }
  std::string worst_text() const { return count == 0 ? "-" : format("%.3fx", worst) + " " + worst_matrix; }
};

// A precision other than fp32, against the three baselines.
struct OtherGroup {
  int passed = 0;
  Ratio own;
  Ratio cusparse;
  Ratio gemm;
  double max_error = NAN;  // fmax skips NaN: stays NaN when no case measured it
};

// Issue 4's accuracy targets (relative error against a float64 reference at K = 256), by the type
// of the features: fp16 2e-3, bf16 1e-2.
double error_target(const std::string& dtype) {
  return precision_named(dtype).features == SDDMM_DTYPE_BFLOAT16 ? 1e-2 : 2e-3;
}

std::string count_text(int64_t n) {
  const double v = static_cast<double>(n);
  if (n >= 1000000) return format("%.2fM", v / 1e6);
  if (n >= 1000) return format("%.1fk", v / 1e3);
  return std::to_string(n);
}

std::string check_text(const Record& r) {
  if (r.status == "ok") return "pass";
  return r.status;
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned char>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Fields of a record in the order of the CSV columns and JSON keys.
std::vector<std::pair<std::string, std::string>> fields(const Record& r, bool json) {
  const auto text = [&](const std::string& s) { return json ? json_string(s) : csv_field(s); };
  const auto number = [&](double v) { return json ? json_number(v) : (std::isfinite(v) ? json_number(v) : ""); };
  const auto integer = [](int64_t v) { return std::to_string(v); };
  return {
      {"matrix", text(r.matrix)},
      {"rows", integer(r.rows)},
      {"cols", integer(r.cols)},
      {"nnz", integer(r.nnz)},
      {"op", text(r.op)},
      {"k", integer(r.k)},
      {"dtype", text(r.dtype)},
      {"status", text(r.status)},
      {"ours_ms", number(r.ours_ms)},
      {"cusparse_ms", number(r.cusparse_ms)},
      {"cusparse_alg", text(r.cusparse_alg)},
      {"speedup", number(r.speedup)},
      {"ours_f32_ms", number(r.ours_f32_ms)},
      {"speedup_vs_own_f32", number(r.speedup_vs_own_f32)},
      {"gemm_ms", number(r.gemm_ms)},
      {"speedup_vs_gemm", number(r.speedup_vs_gemm)},
      {"gemm_status", text(r.gemm_status)},
      {"tensor_core_share", number(r.tensor_core_share)},
      {"tensor_core_kernel", text(r.tensor_core_kernel)},
      {"cuda_core_kernel", text(r.cuda_core_kernel)},
      {"bytes", number(r.bytes)},
      {"ours_gbs", number(r.ours_gbs)},
      {"ours_pct_bw", number(r.ours_pct_bw)},
      {"cusparse_gbs", number(r.cusparse_gbs)},
      {"cusparse_pct_bw", number(r.cusparse_pct_bw)},
      {"ours_pct_l2", number(r.ours_pct_l2)},
      {"cusparse_pct_l2", number(r.cusparse_pct_l2)},
      {"ours_gflops", number(r.ours_gflops)},
      {"cusparse_gflops", number(r.cusparse_gflops)},
      {"plan_ms", number(r.plan_ms)},
      {"plan_over_exec", number(r.plan_over_exec)},
      {"rotation_sets", integer(r.rotation_sets)},
      {"check_worst_ratio", number(r.check_worst_ratio)},
      {"check_max_rel_error", number(r.check_max_rel_error)},
      {"max_rel_error_vs_f32", number(r.max_rel_error_vs_f32)},
      {"reproducible", r.reproducible ? "true" : "false"},
      {"note", text(r.note)},
  };
}

// Precisions in the order the records first name them.
std::vector<std::string> dtypes_of(const std::vector<Record>& records) {
  std::vector<std::string> names;
  for (const Record& r : records) {
    if (std::find(names.begin(), names.end(), r.dtype) == names.end()) names.push_back(r.dtype);
  }
  return names;
}

std::vector<Record> of_dtype(const std::vector<Record>& records, const std::string& dtype) {
  std::vector<Record> kept;
  for (const Record& r : records) {
    if (r.dtype == dtype) kept.push_back(r);
  }
  return kept;
}

void print_f32_rows(std::ostream& out, const std::vector<Record>& records, int width) {
  char line[512];
  std::snprintf(line, sizeof line, "%-*s %8s %5s %-5s %10s %11s %8s %8s %6s %9s %6s  %s\n", width, "matrix", "nnz", "K",
                "op", "ours ms", "cuSPARSE ms", "speedup", "GB/s", "%BW", "plan ms", "check", "note");
  out << line;
  for (const Record& r : records) {
    std::snprintf(line, sizeof line, "%-*s %8s %5lld %-5s %10s %11s %8s %8s %6s %9s %6s  %s\n", width, r.matrix.c_str(),
                  count_text(r.nnz).c_str(), static_cast<long long>(r.k), r.op.c_str(),
                  format("%.4f", r.ours_ms).c_str(), format("%.4f", r.cusparse_ms).c_str(),
                  format("%.2fx", r.speedup).c_str(), format("%.0f", r.ours_gbs).c_str(),
                  format("%.1f", r.ours_pct_bw).c_str(), format("%.3f", r.plan_ms).c_str(), check_text(r).c_str(),
                  r.note.c_str());
    out << line;
  }
}

// fp32 SDDMM against cuBLAS's fp32 GEMM, when it was asked for (--gemm).
void print_f32_gemm_rows(std::ostream& out, const std::vector<Record>& records, int width) {
  const bool any = std::any_of(records.begin(), records.end(), [](const Record& r) { return !r.gemm_status.empty(); });
  if (!any) return;
  char line[512];
  out << "\ncuBLAS dense GEMM of X1 X2 in fp32 (CUBLAS_COMPUTE_32F), against our fp32 SDDMM\n";
  std::snprintf(line, sizeof line, "%-*s %8s %5s %10s %10s %8s  %s\n", width, "matrix", "nnz", "K", "ours ms",
                "GEMM ms", "vs GEMM", "GEMM");
  out << line;
  for (const Record& r : records) {
    if (r.gemm_status.empty()) continue;
    std::snprintf(line, sizeof line, "%-*s %8s %5lld %10s %10s %8s  %s\n", width, r.matrix.c_str(),
                  count_text(r.nnz).c_str(), static_cast<long long>(r.k), format("%.4f", r.ours_ms).c_str(),
                  format("%.4f", r.gemm_ms).c_str(), format("%.2fx", r.speedup_vs_gemm).c_str(), r.gemm_status.c_str());
    out << line;
  }
}

// A precision other than fp32: ours, and the three baselines beside it.
void print_other_rows(std::ostream& out, const std::vector<Record>& records, int width) {
  char line[640];
  std::snprintf(line, sizeof line, "%-*s %8s %5s %-5s %10s %10s %7s %11s %7s %10s %8s %6s %10s %6s  %s\n", width,
                "matrix", "nnz", "K", "op", "ours ms", "f32 ms", "vs f32", "cuSPARSE ms", "vs cuSP", "GEMM ms",
                "vs GEMM", "%BW", "err vs f32", "check", "note");
  out << line;
  for (const Record& r : records) {
    std::snprintf(line, sizeof line, "%-*s %8s %5lld %-5s %10s %10s %7s %11s %7s %10s %8s %6s %10s %6s  %s\n", width,
                  r.matrix.c_str(), count_text(r.nnz).c_str(), static_cast<long long>(r.k), r.op.c_str(),
                  format("%.4f", r.ours_ms).c_str(), format("%.4f", r.ours_f32_ms).c_str(),
                  format("%.2fx", r.speedup_vs_own_f32).c_str(), format("%.4f", r.cusparse_ms).c_str(),
                  format("%.2fx", r.speedup).c_str(), format("%.4f", r.gemm_ms).c_str(),
                  format("%.2fx", r.speedup_vs_gemm).c_str(), format("%.1f", r.ours_pct_bw).c_str(),
                  format("%.1e", r.max_rel_error_vs_f32).c_str(), check_text(r).c_str(), r.note.c_str());
    out << line;
  }
}

std::ofstream open_output(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write '" + path + "'");
  return out;
}

}  // namespace

void derive_rates(Record& r, const DeviceInfo& device) {
  const double copy_gbs = device.copy_gbs;
  r.speedup = r.cusparse_ms / r.ours_ms;
  r.speedup_vs_own_f32 = r.ours_f32_ms / r.ours_ms;
  r.speedup_vs_gemm = r.gemm_ms / r.ours_ms;
  const double gflop = flops(r.nnz, r.k) / 1e9;
  r.ours_gbs = r.bytes / (r.ours_ms * 1e6);
  r.ours_pct_bw = 100.0 * r.ours_gbs / copy_gbs;
  r.ours_pct_l2 = 100.0 * r.ours_gbs / device.l2_read_gbs;
  if (r.dtype == f32_precision().name) {  // r.bytes counts this precision's elements; cuSPARSE's are fp32
    r.cusparse_gbs = r.bytes / (r.cusparse_ms * 1e6);
    r.cusparse_pct_bw = 100.0 * r.cusparse_gbs / copy_gbs;
    r.cusparse_pct_l2 = 100.0 * r.cusparse_gbs / device.l2_read_gbs;
  }
  r.ours_gflops = gflop / (r.ours_ms * 1e-3);
  r.cusparse_gflops = gflop / (r.cusparse_ms * 1e-3);
  if (r.op == op_name(Op::kSddmm)) r.plan_over_exec = r.plan_ms / r.ours_ms;
}

void print_table(std::ostream& out, const std::vector<Record>& records) {
  size_t name_width = 6;
  for (const Record& r : records) name_width = std::max(name_width, r.matrix.size());
  const int width = static_cast<int>(name_width);
  const std::vector<std::string> names = dtypes_of(records);
  const std::string f32 = f32_precision().name;
  if (names.size() > 1) out << f32 << " (" << describe(precision_named(f32)) << "): ours against cuSPARSE\n";
  print_f32_rows(out, of_dtype(records, f32), width);
  print_f32_gemm_rows(out, of_dtype(records, f32), width);
  for (const std::string& name : names) {
    if (name == f32) continue;
    out << "\n"
        << name << " (" << describe(precision_named(name)) << "): ours against our " << f32
        << " and cuSPARSE's (same matrix and K), and cuBLAS's dense GEMM in " << name << "\n";
    print_other_rows(out, of_dtype(records, name), width);
  }
}

void print_summary(std::ostream& out, const std::vector<Record>& records, const RunInfo& info) {
  std::map<std::pair<std::string, int64_t>, Ratio> groups;                     // fp32: over cuSPARSE, per op and K
  std::map<std::tuple<std::string, int64_t, std::string>, OtherGroup> others;  // per op, K and precision
  double worst_plan = 0;
  std::string worst_plan_matrix;
  int failures = 0, unchecked = 0, irreproducible = 0, gemm_wrong = 0, gemm_failed = 0;
  for (const Record& r : records) {
    if (!r.reproducible) ++irreproducible;
    if (r.status == "FAIL" || r.status == "ERROR") ++failures;
    if (r.status == "skipped" || r.status == "no-ref") ++unchecked;
    if (r.gemm_status == "WRONG") ++gemm_wrong;
    if (r.gemm_status == "error") ++gemm_failed;
    if (r.status != "ok") continue;
    if (r.dtype != f32_precision().name) {
      OtherGroup& g = others[{r.op, r.k, r.dtype}];
      ++g.passed;
      g.own.add(r.speedup_vs_own_f32, r.matrix);
      g.cusparse.add(r.speedup, r.matrix);
      g.gemm.add(r.speedup_vs_gemm, r.matrix);
      g.max_error = std::fmax(g.max_error, r.max_rel_error_vs_f32);
      continue;
    }
    if (!std::isfinite(r.speedup)) continue;
    groups[{r.op, r.k}].add(r.speedup, r.matrix);
    if (r.op == "sddmm" && r.k == kPlanRatioK && r.nnz >= kPlanRatioMinNnz && r.plan_over_exec > worst_plan) {
      worst_plan = r.plan_over_exec;
      worst_plan_matrix = r.matrix;
    }
  }
  char line[512];
  out << "\n"
      << info.device.name << ": copy bandwidth " << format("%.0f", info.device.copy_gbs)
      << " GB/s (read + write), L2 read rate " << format("%.0f", info.device.l2_read_gbs) << " GB/s, L2 "
      << format("%.0f", static_cast<double>(info.device.l2_bytes) / 1048576.0) << " MiB; median of " << info.reps
      << " runs after " << info.warmup << " warm-up runs\n";
  if (worst_plan > 0) {
    std::snprintf(line, sizeof line,
                  "plan creation / one SDDMM at K=%lld, nnz >= 1M: worst %.2fx (%s), target <= %.0fx\n",
                  static_cast<long long>(kPlanRatioK), worst_plan, worst_plan_matrix.c_str(), kPlanRatioTarget);
    out << line;
  }
  if (failures > 0) out << failures << " case(s) FAILED the check or returned an error: see the check column\n";
  if (irreproducible > 0)
    out << irreproducible << " case(s) not bitwise reproducible run to run (target: deterministic)\n";
  if (unchecked > 0) out << unchecked << " case(s) skipped or without a cuSPARSE result: see the note column\n";
  if (gemm_wrong > 0) out << gemm_wrong << " cuBLAS GEMM result(s) WRONG at sampled entries: see the note column\n";
  if (gemm_failed > 0) out << gemm_failed << " cuBLAS GEMM(s) failed: see the note column\n";
  out << "speedup over cuSPARSE (> 1: ours faster), geometric mean over the matrices that passed:\n";
  for (const auto& [key, g] : groups) {
    const Target target = target_of(key.first);
    std::snprintf(line, sizeof line,
                  "  %-5s K=%-4lld geomean %6.3fx over %3d matrices, worst %6.3fx (%s)   [target: "
                  ">= %.1fx geomean, >= %.1fx each]\n",
                  key.first.c_str(), static_cast<long long>(key.second), g.geomean(), g.count, g.worst,
                  g.worst_matrix.c_str(), target.geomean, target.each);
    out << line;
  }
  if (others.empty()) return;
  out << "other precisions (> 1: ours faster), geometric mean over the matrices that passed; largest relative\n"
         "error against cuSPARSE fp32 on the unrounded inputs:\n";
  for (const auto& [key, g] : others) {
    const auto& [op, k, dtype] = key;
    std::snprintf(line, sizeof line,
                  "  %-5s K=%-4lld %-8s over our f32 %s (worst %s), over cuSPARSE f32 %s, over cuBLAS GEMM %s, "
                  "%d matrices; error %s [target <= %.0e]\n",
                  op.c_str(), static_cast<long long>(k), dtype.c_str(), g.own.geomean_text().c_str(),
                  g.own.worst_text().c_str(), g.cusparse.geomean_text().c_str(), g.gemm.geomean_text().c_str(),
                  g.passed, format("%.1e", g.max_error).c_str(), error_target(dtype));
    out << line;
  }
  out << "  [targets of issue 4: >= 1.7x over our f32 on the large uniform matrices; SDDMM on 8000^2 at 90-95% "
         "sparse, K=256: >= 3x over cuSPARSE f32 and faster than cuBLAS GEMM]\n";
}

void write_json(const std::string& path, const std::vector<Record>& records, const RunInfo& info) {
  std::ofstream out = open_output(path);
  const DeviceInfo& d = info.device;
  out << "{\n  \"run\": {\"started\": " << json_string(info.started) << ", \"device\": " << json_string(d.name)
      << ", \"compute_capability\": " << d.compute_capability << ", \"sm_count\": " << d.sm_count
      << ", \"l2_bytes\": " << d.l2_bytes << ", \"memory_bytes\": " << d.memory_bytes
      << ", \"copy_gbs\": " << json_number(d.copy_gbs) << ", \"l2_read_gbs\": " << json_number(d.l2_read_gbs)
      << ", \"library_version\": " << info.library_version
      << ", \"cuda_runtime_version\": " << info.cuda_runtime_version
      << ", \"cuda_driver_version\": " << info.cuda_driver_version
      << ", \"cusparse_version\": " << info.cusparse_version
      << ", \"cublas_version\": " << (info.cublas_version > 0 ? std::to_string(info.cublas_version) : "null")
      << ", \"dtypes\": [";
  for (size_t i = 0; i < info.dtypes.size(); ++i) out << (i == 0 ? "" : ", ") << json_string(info.dtypes[i]);
  out << "], \"reps\": " << info.reps << ", \"warmup\": " << info.warmup << "},\n  \"results\": [";
  for (size_t i = 0; i < records.size(); ++i) {
    out << (i == 0 ? "\n    {" : ",\n    {");
    bool first = true;
    for (const auto& [key, value] : fields(records[i], true)) {
      out << (first ? "" : ", ") << json_string(key) << ": " << value;
      first = false;
    }
    out << "}";
  }
  out << "\n  ]\n}\n";
  if (!out) throw std::runtime_error("writing '" + path + "' failed");
}

void write_csv(const std::string& path, const std::vector<Record>& records) {
  std::ofstream out = open_output(path);
  const std::vector<std::pair<std::string, std::string>> header = fields(Record{}, false);
  for (size_t i = 0; i < header.size(); ++i) out << (i == 0 ? "" : ",") << header[i].first;
  out << "\n";
  for (const Record& r : records) {
    const std::vector<std::pair<std::string, std::string>> row = fields(r, false);
    for (size_t i = 0; i < row.size(); ++i) out << (i == 0 ? "" : ",") << row[i].second;
    out << "\n";
  }
  if (!out) throw std::runtime_error("writing '" + path + "' failed");
}

}  // namespace sddmm::bench
