#include "run_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "bytes_model.hpp"
#include "convert.hpp"
#include "device.hpp"

namespace sddmm::bench {
namespace {

// Device memory of one of our plans, a guess (the library's own footprint is not part of the API):
// sorted indices, values, permutation and row offsets, with room to spare.
constexpr double kOurPlanBytesPerEntry = 32;
constexpr double kOurPlanBytesPerRow = 16;
// Leave this share of the free memory for cuSPARSE's buffers, our workspaces and fragmentation.
constexpr double kUsableMemory = 0.9;

struct CasePlan {
  Op op;
  int64_t k;
  Precision precision;
  int sets;
};

std::string megabytes(double bytes) { return std::to_string(static_cast<int64_t>(bytes / 1e6)) + " MB"; }

std::string fixed(double value, int digits) {
  if (!std::isfinite(value)) return "-";
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

std::string case_name(const CasePlan& c) {
  return std::string(op_name(c.op)) + " K=" + std::to_string(c.k) + " " + c.precision.name;
}

// Our plans are made once per value type and create flags (the plan's kind).
using PlanKind = std::pair<sddmm_dtype_t, uint32_t>;
PlanKind plan_kind(const Precision& p) { return {p.values, p.create_flags}; }

// Kinds of plan the requested precisions need, each once.
int plan_kinds(const Options& options) {
  std::vector<PlanKind> kinds;
  for (const Precision& p : options.precisions) {
    if (std::find(kinds.begin(), kinds.end(), plan_kind(p)) == kinds.end()) kinds.push_back(plan_kind(p));
  }
  return static_cast<int>(kinds.size());
}

// Bytes of the pattern copies: our plans, the CSR copies, and the COO arrays uploaded to create them.
double pattern_bytes(const HostMatrix& m, int sets, int plan_kinds) {
  const double nnz = static_cast<double>(m.nnz), rows = static_cast<double>(m.rows);
  const double plans = nnz * kOurPlanBytesPerEntry + rows * kOurPlanBytesPerRow;
  const double per_set = plan_kinds * plans + nnz * 8 + rows * 4;
  return sets * per_set + nnz * 12;
}

// Bytes of the dense operands and outputs of one case, over all its sets, with the fp32 copies that
// other precisions keep for the checks.
double case_bytes(const HostMatrix& m, const CasePlan& c) {
  const double rows = static_cast<double>(m.rows), cols = static_cast<double>(m.cols);
  const double nnz = static_cast<double>(m.nnz), k = static_cast<double>(c.k);
  const ElementBytes e = element_bytes(c.precision);
  const bool f32 = c.precision.is_f32();
  if (c.op == Op::kSddmm) {
    const double per_set = (rows + cols) * k * e.features + nnz * (e.output + 4);
    return c.sets * per_set + (f32 ? 0 : (rows + cols) * k * 8 + nnz * 8);
  }
  const double per_set = cols * k * e.features + rows * k * (e.output + 4);
  return c.sets * per_set + (f32 ? 0 : (rows + cols) * k * 8 + nnz * 12);
}

// Our plans for each kind (value type, create flags), made when a case first needs them. A refusal
// (a value type the library does not offer yet) is kept and handed to every case of that kind.
class PlanCache {
 public:
  PlanCache(const HostMatrix& m, int sets, const CaseContext& ctx) : m_(m), sets_(sets), ctx_(ctx) {}

  PatternSets pattern(const Precision& precision, const std::vector<CsrArrays>& csr) {
    const PlanKind kind = plan_kind(precision);
    auto found = entries_.find(kind);
    if (found == entries_.end()) found = entries_.emplace(kind, make(kind)).first;
    const Entry& e = found->second;
    return {e.plans.get(), e.error, csr, kind.first == SDDMM_DTYPE_FLOAT32 ? m_.val : e.values};
  }

 private:
  struct Entry {
    std::unique_ptr<OurPlans> plans;
    std::string error;
    std::vector<float> values;  // A's values rounded to the value type, if not fp32
  };

  Entry make(PlanKind kind) {
    Entry e;
    const sddmm_dtype_t values = kind.first;
    std::string what = values == SDDMM_DTYPE_FLOAT32 ? "" : std::string(" (") + dtype_name(values) + " values)";
    if ((kind.second & SDDMM_CREATE_ALLOW_TF32) != 0) what += " (TF32 allowed)";
    try {
      e.plans = std::make_unique<OurPlans>(m_, values, kind.second, sets_, ctx_.device.device, ctx_.stream);
      ctx_.log("  plan creation" + what + " " + fixed(e.plans->plan_ms(), 3) + " ms; " + std::to_string(sets_) +
               " copies of the pattern for L2 rotation");
    } catch (const LibraryError& error) {
      e.error = "creating the plan" + what + ": " + error.what();
      ctx_.log("  " + e.error);
    }
    if (values != SDDMM_DTYPE_FLOAT32) e.values = rounded_to(m_.val, values, ctx_.stream);
    return e;
  }

  const HostMatrix& m_;
  int sets_;
  const CaseContext& ctx_;
  std::map<PlanKind, Entry> entries_;
};

Record failed_record(const HostMatrix& m, const CasePlan& c, const std::string& status, const std::string& why) {
  Record record = case_record(m, c.op, c.k, c.precision);
  record.status = status;
  record.rotation_sets = c.sets;
  add_note(record, why);
  return record;
}

// Another precision's record gets the fp32 case of its op and K beside it: our fp32 time, and
// cuSPARSE's, which runs in fp32 only.
void compare_with_f32(Record& r, const std::vector<Record>& done) {
  if (r.dtype == f32_precision().name) return;
  for (const Record& base : done) {
    if (base.dtype == f32_precision().name && base.matrix == r.matrix && base.op == r.op && base.k == r.k) {
      r.ours_f32_ms = base.ours_ms;
      r.cusparse_ms = base.cusparse_ms;
      r.cusparse_alg = base.cusparse_alg;
      return;
    }
  }
}

Record run_case(const HostMatrix& m, const CasePlan& c, const PatternSets& pattern, const CaseContext& ctx) {
  const double needed = case_bytes(m, c);
  const double free_bytes = static_cast<double>(free_device_memory());
  if (needed > kUsableMemory * free_bytes) {
    throw DeviceOutOfMemory("needs about " + megabytes(needed) + ", " + megabytes(free_bytes) + " free");
  }
  Record record = c.op == Op::kSddmm ? run_sddmm_case(m, c.k, c.precision, c.sets, pattern, ctx)
                                     : run_spmm_case(m, c.k, c.precision, c.sets, pattern, ctx);
  if (c.sets > 1) {
    add_note(record, std::to_string(c.sets) + " sets rotated past L2" +
                         (c.sets == kMaxRotationSets ? " (capped: L2 may still help)" : ""));
  }
  return record;
}

std::string progress_line(const CasePlan& c, const Record& r) {
  std::string line = "  " + case_name(c) + ": ours " + fixed(r.ours_ms, 4) + " ms, cuSPARSE" +
                     (c.precision.is_f32() ? " " : " f32 ") + fixed(r.cusparse_ms, 4) + " ms (" + fixed(r.speedup, 2) +
                     "x)";
  if (!c.precision.is_f32()) {
    line += ", our f32 " + fixed(r.ours_f32_ms, 4) + " ms (" + fixed(r.speedup_vs_own_f32, 2) + "x)";
  }
  if (!r.gemm_status.empty()) {
    line +=
        ", cuBLAS GEMM " + fixed(r.gemm_ms, 4) + " ms (" + fixed(r.speedup_vs_gemm, 2) + "x, " + r.gemm_status + ")";
  }
  return line + ", " + fixed(r.ours_pct_bw, 1) + "% BW, check " + r.status;
}

}  // namespace

std::vector<Record> run_matrix(const HostMatrix& m, const CaseContext& ctx) {
  std::vector<CasePlan> plans;
  int pattern_sets = 1;
  for (Op op : ctx.options.ops) {
    for (int64_t k : ctx.options.ks) {
      for (const Precision& precision : ctx.options.precisions) {
        const ElementBytes e = element_bytes(precision);
        const double footprint = op == Op::kSddmm ? sddmm_footprint(m.rows, m.cols, m.nnz, k, e)
                                                  : spmm_footprint(m.rows, m.cols, m.nnz, k, e);
        const int sets = rotation_sets(footprint, ctx.device.l2_bytes);
        plans.push_back({op, k, precision, sets});
        pattern_sets = std::max(pattern_sets, sets);
      }
    }
  }

  std::vector<Record> records;
  const auto fail_all = [&](const std::string& status, const std::string& why) {
    ctx.log("  " + m.name + ": " + status + ": " + why);
    for (const CasePlan& c : plans) records.push_back(failed_record(m, c, status, why));
    return records;
  };
  if (m.nnz == 0) return fail_all("skipped", "no entries");
  const double needed = pattern_bytes(m, pattern_sets, plan_kinds(ctx.options));
  const double free_bytes = static_cast<double>(free_device_memory());
  if (needed > kUsableMemory * free_bytes) {
    return fail_all("skipped",
                    "pattern copies need about " + megabytes(needed) + ", " + megabytes(free_bytes) + " free");
  }

  try {
    PlanCache our_plans(m, pattern_sets, ctx);
    const std::vector<CsrArrays> csr = upload_csr(m, pattern_sets, ctx.stream);
    for (const CasePlan& c : plans) {
      Record record;
      try {
        record = run_case(m, c, our_plans.pattern(c.precision, csr), ctx);
      } catch (const DeviceOutOfMemory& e) {
        record = failed_record(m, c, "skipped", e.what());
      } catch (const LibraryError& e) {
        record = failed_record(m, c, "ERROR", e.what());
      }
      compare_with_f32(record, records);
      derive_rates(record, ctx.device);
      records.push_back(record);
      if (record.status == "skipped") {
        ctx.log("  " + case_name(c) + " skipped: " + record.note);
      } else {
        ctx.log(progress_line(c, record) + (record.status == "ERROR" ? ": " + record.note : ""));
      }
    }
  } catch (const DeviceOutOfMemory& e) {
    records.clear();
    return fail_all("skipped", e.what());
  }
  return records;
}

}  // namespace sddmm::bench
