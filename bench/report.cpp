#include "report.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <stdexcept>
#include <utility>

#include "bytes_model.hpp"

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
      {"status", text(r.status)},
      {"ours_ms", number(r.ours_ms)},
      {"cusparse_ms", number(r.cusparse_ms)},
      {"cusparse_alg", text(r.cusparse_alg)},
      {"speedup", number(r.speedup)},
      {"bytes", number(r.bytes)},
      {"ours_gbs", number(r.ours_gbs)},
      {"ours_pct_bw", number(r.ours_pct_bw)},
      {"cusparse_gbs", number(r.cusparse_gbs)},
      {"cusparse_pct_bw", number(r.cusparse_pct_bw)},
      {"ours_gflops", number(r.ours_gflops)},
      {"cusparse_gflops", number(r.cusparse_gflops)},
      {"plan_ms", number(r.plan_ms)},
      {"plan_over_exec", number(r.plan_over_exec)},
      {"rotation_sets", integer(r.rotation_sets)},
      {"check_worst_ratio", number(r.check_worst_ratio)},
      {"check_max_rel_error", number(r.check_max_rel_error)},
      {"reproducible", r.reproducible ? "true" : "false"},
      {"note", text(r.note)},
  };
}

std::ofstream open_output(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write '" + path + "'");
  return out;
}

}  // namespace

void derive_rates(Record& r, double copy_gbs) {
  r.speedup = r.cusparse_ms / r.ours_ms;
  const double gflop = flops(r.nnz, r.k) / 1e9;
  r.ours_gbs = r.bytes / (r.ours_ms * 1e6);
  r.cusparse_gbs = r.bytes / (r.cusparse_ms * 1e6);
  r.ours_pct_bw = 100.0 * r.ours_gbs / copy_gbs;
  r.cusparse_pct_bw = 100.0 * r.cusparse_gbs / copy_gbs;
  r.ours_gflops = gflop / (r.ours_ms * 1e-3);
  r.cusparse_gflops = gflop / (r.cusparse_ms * 1e-3);
}

void print_table(std::ostream& out, const std::vector<Record>& records) {
  size_t name_width = 6;
  for (const Record& r : records) name_width = std::max(name_width, r.matrix.size());
  char line[512];
  std::snprintf(line, sizeof line, "%-*s %8s %5s %-5s %10s %11s %8s %8s %6s %9s %6s  %s\n",
                static_cast<int>(name_width), "matrix", "nnz", "K", "op", "ours ms", "cuSPARSE ms", "speedup", "GB/s",
                "%BW", "plan ms", "check", "note");
  out << line;
  for (const Record& r : records) {
    std::snprintf(line, sizeof line, "%-*s %8s %5lld %-5s %10s %11s %8s %8s %6s %9s %6s  %s\n",
                  static_cast<int>(name_width), r.matrix.c_str(), count_text(r.nnz).c_str(),
                  static_cast<long long>(r.k), r.op.c_str(), format("%.4f", r.ours_ms).c_str(),
                  format("%.4f", r.cusparse_ms).c_str(), format("%.2fx", r.speedup).c_str(),
                  format("%.0f", r.ours_gbs).c_str(), format("%.1f", r.ours_pct_bw).c_str(),
                  format("%.3f", r.plan_ms).c_str(), check_text(r).c_str(), r.note.c_str());
    out << line;
  }
}

void print_summary(std::ostream& out, const std::vector<Record>& records, const RunInfo& info) {
  struct Group {
    double log_sum = 0;
    int count = 0;
    double worst = INFINITY;
    std::string worst_matrix;
  };
  std::map<std::pair<std::string, int64_t>, Group> groups;
  double worst_plan = 0;
  std::string worst_plan_matrix;
  int failures = 0, unchecked = 0, irreproducible = 0;
  for (const Record& r : records) {
    if (!r.reproducible) ++irreproducible;
    if (r.status == "FAIL" || r.status == "ERROR") ++failures;
    if (r.status == "skipped" || r.status == "no-ref") ++unchecked;
    if (r.status != "ok" || !std::isfinite(r.speedup)) continue;
    Group& g = groups[{r.op, r.k}];
    g.log_sum += std::log(r.speedup);
    ++g.count;
    if (r.speedup < g.worst) {
      g.worst = r.speedup;
      g.worst_matrix = r.matrix;
    }
    if (r.op == "sddmm" && r.k == kPlanRatioK && r.nnz >= kPlanRatioMinNnz && r.plan_over_exec > worst_plan) {
      worst_plan = r.plan_over_exec;
      worst_plan_matrix = r.matrix;
    }
  }
  char line[512];
  out << "\n"
      << info.device.name << ": copy bandwidth " << format("%.0f", info.device.copy_gbs) << " GB/s (read + write), L2 "
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
  out << "speedup over cuSPARSE (> 1: ours faster), geometric mean over the matrices that passed:\n";
  for (const auto& [key, g] : groups) {
    const Target target = target_of(key.first);
    std::snprintf(line, sizeof line,
                  "  %-5s K=%-4lld geomean %6.3fx over %3d matrices, worst %6.3fx (%s)   [target: "
                  ">= %.1fx geomean, >= %.1fx each]\n",
                  key.first.c_str(), static_cast<long long>(key.second), std::exp(g.log_sum / g.count), g.count,
                  g.worst, g.worst_matrix.c_str(), target.geomean, target.each);
    out << line;
  }
}

void write_json(const std::string& path, const std::vector<Record>& records, const RunInfo& info) {
  std::ofstream out = open_output(path);
  const DeviceInfo& d = info.device;
  out << "{\n  \"run\": {\"started\": " << json_string(info.started) << ", \"device\": " << json_string(d.name)
      << ", \"compute_capability\": " << d.compute_capability << ", \"sm_count\": " << d.sm_count
      << ", \"l2_bytes\": " << d.l2_bytes << ", \"memory_bytes\": " << d.memory_bytes
      << ", \"copy_gbs\": " << json_number(d.copy_gbs) << ", \"library_version\": " << info.library_version
      << ", \"cuda_runtime_version\": " << info.cuda_runtime_version
      << ", \"cuda_driver_version\": " << info.cuda_driver_version
      << ", \"cusparse_version\": " << info.cusparse_version << ", \"reps\": " << info.reps
      << ", \"warmup\": " << info.warmup << "},\n  \"results\": [";
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
