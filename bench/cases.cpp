#include "cases.hpp"

#include <cstring>

#include "bytes_model.hpp"
#include "random.hpp"

namespace sddmm::bench {

Record case_record(const HostMatrix& m, Op op, int64_t k) {
  Record record;
  record.matrix = m.name;
  record.rows = m.rows;
  record.cols = m.cols;
  record.nnz = m.nnz;
  record.op = op_name(op);
  record.k = k;
  record.bytes = op == Op::kSddmm ? sddmm_bytes(m.rows, m.nnz, k) : spmm_bytes(m.rows, m.nnz, k);
  return record;
}

uint64_t operand_seed(int64_t k, int role) {
  constexpr uint64_t kOperandSeed = 0x5eedda7aULL;
  return testkit::stream_seed(kOperandSeed, static_cast<uint64_t>(k) * 8 + static_cast<uint64_t>(role));
}

void add_note(Record& record, const std::string& text) { record.note += (record.note.empty() ? "" : "; ") + text; }

void record_check(Record& record, const CheckResult& check) {
  record.status = check.pass ? "ok" : "FAIL";
  record.check_worst_ratio = check.worst_ratio;
  record.check_max_rel_error = check.max_rel_error;
  if (!check.pass) {
    add_note(record, std::to_string(check.bad) + " wrong, first " + check.first_bad);
  }
}

void record_reproducibility(Record& record, const std::vector<float>& first, const std::vector<float>& later) {
  // Bitwise, so that NaN == NaN and -0 != +0: the promise is the same bits run to run.
  record.reproducible =
      first.size() == later.size() && std::memcmp(first.data(), later.data(), first.size() * sizeof(float)) == 0;
  if (!record.reproducible) add_note(record, "output differs bitwise between runs");
}

}  // namespace sddmm::bench
