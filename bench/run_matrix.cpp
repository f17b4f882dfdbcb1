#include "run_matrix.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "bytes_model.hpp"
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
  int sets;
};

std::string megabytes(double bytes) { return std::to_string(static_cast<int64_t>(bytes / 1e6)) + " MB"; }

std::string fixed(double value, int digits) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

std::string case_name(const CasePlan& c) { return std::string(op_name(c.op)) + " K=" + std::to_string(c.k); }

// Bytes of the pattern copies: our plans, the CSR copies, and the COO arrays uploaded to create them.
double pattern_bytes(const HostMatrix& m, int sets) {
  const double nnz = static_cast<double>(m.nnz), rows = static_cast<double>(m.rows);
  const double per_set = nnz * (kOurPlanBytesPerEntry + 8) + rows * (kOurPlanBytesPerRow + 4);
  return sets * per_set + nnz * 12;
}

// Bytes of the dense operands and outputs of one case, over all its sets.
double case_bytes(const HostMatrix& m, const CasePlan& c) {
  const double rows = static_cast<double>(m.rows), cols = static_cast<double>(m.cols);
  const double per_set = c.op == Op::kSddmm ? (rows + cols) * c.k * 4 + 2.0 * static_cast<double>(m.nnz) * 4
                                            : cols * c.k * 4 + 2.0 * rows * c.k * 4;
  return c.sets * per_set;
}

Record failed_record(const HostMatrix& m, const CasePlan& c, const std::string& status, const std::string& why) {
  Record record = case_record(m, c.op, c.k);
  record.status = status;
  record.rotation_sets = c.sets;
  add_note(record, why);
  return record;
}

Record run_case(const HostMatrix& m, const CasePlan& c, const PatternSets& pattern, const CaseContext& ctx) {
  const double needed = case_bytes(m, c);
  const double free_bytes = static_cast<double>(free_device_memory());
  if (needed > kUsableMemory * free_bytes) {
    throw DeviceOutOfMemory("needs about " + megabytes(needed) + ", " + megabytes(free_bytes) + " free");
  }
  Record record =
      c.op == Op::kSddmm ? run_sddmm_case(m, c.k, c.sets, pattern, ctx) : run_spmm_case(m, c.k, c.sets, pattern, ctx);
  if (c.sets > 1) {
    add_note(record, std::to_string(c.sets) + " sets rotated past L2" +
                         (c.sets == kMaxRotationSets ? " (capped: L2 may still help)" : ""));
  }
  return record;
}

}  // namespace

std::vector<Record> run_matrix(const HostMatrix& m, const CaseContext& ctx) {
  std::vector<CasePlan> plans;
  int pattern_sets = 1;
  for (Op op : ctx.options.ops) {
    for (int64_t k : ctx.options.ks) {
      const double footprint =
          op == Op::kSddmm ? sddmm_footprint(m.rows, m.cols, m.nnz, k) : spmm_footprint(m.rows, m.cols, m.nnz, k);
      const int sets = rotation_sets(footprint, ctx.device.l2_bytes);
      plans.push_back({op, k, sets});
      pattern_sets = std::max(pattern_sets, sets);
    }
  }

  std::vector<Record> records;
  const auto fail_all = [&](const std::string& status, const std::string& why) {
    ctx.log("  " + m.name + ": " + status + ": " + why);
    for (const CasePlan& c : plans) records.push_back(failed_record(m, c, status, why));
    return records;
  };
  if (m.nnz == 0) return fail_all("skipped", "no entries");
  const double needed = pattern_bytes(m, pattern_sets);
  const double free_bytes = static_cast<double>(free_device_memory());
  if (needed > kUsableMemory * free_bytes) {
    return fail_all("skipped",
                    "pattern copies need about " + megabytes(needed) + ", " + megabytes(free_bytes) + " free");
  }

  try {
    const OurPlans our_plans(m, pattern_sets, ctx.device.device, ctx.stream);
    const std::vector<CsrArrays> csr = upload_csr(m, pattern_sets, ctx.stream);
    const PatternSets pattern{our_plans, csr};
    ctx.log("  plan creation " + fixed(our_plans.plan_ms(), 3) + " ms; " + std::to_string(pattern_sets) +
            " copies of the pattern for L2 rotation");
    for (const CasePlan& c : plans) {
      try {
        records.push_back(run_case(m, c, pattern, ctx));
        const Record& r = records.back();
        ctx.log("  " + case_name(c) + ": ours " + fixed(r.ours_ms, 4) + " ms, cuSPARSE " + fixed(r.cusparse_ms, 4) +
                " ms (" + fixed(r.speedup, 2) + "x), " + fixed(r.ours_pct_bw, 1) + "% BW, check " + r.status);
      } catch (const DeviceOutOfMemory& e) {
        records.push_back(failed_record(m, c, "skipped", e.what()));
        ctx.log("  " + case_name(c) + " skipped: " + e.what());
      } catch (const LibraryError& e) {
        records.push_back(failed_record(m, c, "ERROR", e.what()));
        ctx.log("  " + case_name(c) + " ERROR: " + e.what());
      }
    }
  } catch (const DeviceOutOfMemory& e) {
    records.clear();
    return fail_all("skipped", e.what());
  } catch (const LibraryError& e) {
    records.clear();
    return fail_all("ERROR", std::string("creating the plan: ") + e.what());
  }
  return records;
}

}  // namespace sddmm::bench
