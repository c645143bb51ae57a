/// @file case_file.cpp
/// @brief Reading and writing the judge's case files, with every size checked.

#include "grading/judge/case_file.hpp"

#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>

namespace course::judge {
namespace {

const std::string kInputsMagic = "COURSE-JUDGE-INPUTS 1\n";
const std::string kOutputsMagic = "COURSE-JUDGE-OUTPUTS 1\n";
constexpr std::uint32_t kGemm = 1;
constexpr std::uint32_t kSddmm = 2;
// No case of the plan comes near these; a larger size is a damaged or hostile file.
constexpr std::int64_t kMaxSide = 1 << 20;
constexpr std::uint32_t kMaxProducts = 1 << 20;

class Writer {
 public:
  explicit Writer(const std::string& path) : path_(path), out_(path, std::ios::binary) {
    if (!out_) {
      throw std::runtime_error("cannot write " + path);
    }
  }
  void bytes(const void* data, std::size_t count) {
    out_.write(static_cast<const char*>(data), static_cast<std::streamsize>(count));
  }
  template <typename T>
  void value(T item) {
    bytes(&item, sizeof(T));
  }
  template <typename T>
  void array(const std::vector<T>& items) {
    bytes(items.data(), items.size() * sizeof(T));
  }
  void finish() {
    out_.flush();
    if (!out_) {
      throw std::runtime_error("writing " + path_ + " failed");
    }
  }

 private:
  std::string path_;
  std::ofstream out_;
};

class Reader {
 public:
  Reader(const std::string& path, std::size_t limit) : path_(path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      throw std::runtime_error("cannot read " + path);
    }
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::size_t>(in.tellg());
    if (size > limit) {
      throw std::runtime_error(path + " holds " + std::to_string(size) + " bytes, more than the " +
                               std::to_string(limit) + " its case can need");
    }
    in.seekg(0);
    data_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  void expect(const std::string& magic) {
    if (data_.size() < magic.size() || data_.compare(0, magic.size(), magic) != 0) {
      throw std::runtime_error(path_ + " does not start with '" +
                               magic.substr(0, magic.size() - 1) + "'");
    }
    offset_ = magic.size();
  }
  bool done() const { return offset_ == data_.size(); }
  template <typename T>
  T value() {
    T item{};
    take(&item, sizeof(T));
    return item;
  }
  template <typename T>
  std::vector<T> array(std::int64_t count) {
    if (count < 0 || static_cast<std::uint64_t>(count) > (data_.size() - offset_) / sizeof(T)) {
      throw std::runtime_error(path_ + ": an array of " + std::to_string(count) +
                               " elements does not fit the file");
    }
    std::vector<T> items(static_cast<std::size_t>(count));
    take(items.data(), items.size() * sizeof(T));
    return items;
  }
  std::int32_t side(const char* what) {
    const auto item = value<std::int32_t>();
    if (item < 0 || item > kMaxSide) {
      throw std::runtime_error(path_ + ": " + what + " " + std::to_string(item) +
                               " is out of range");
    }
    return item;
  }

 private:
  void take(void* target, std::size_t count) {
    if (count > data_.size() - offset_) {
      throw std::runtime_error(path_ + " ends early");
    }
    std::memcpy(target, data_.data() + offset_, count);
    offset_ += count;
  }
  std::string path_;
  std::string data_;
  std::size_t offset_ = 0;
};

void write_gemm(Writer& out, const GemmProduct& product) {
  for (const std::int32_t item :
       {product.launcher, product.variant, product.rows, product.inner, product.cols}) {
    out.value(item);
  }
  out.array(product.a);
  out.array(product.b);
}

void write_sddmm(Writer& out, const SddmmProduct& product) {
  for (const std::int32_t item : {product.launcher, product.variant, product.rows, product.inner,
                                  product.cols, product.lda, product.ldb}) {
    out.value(item);
  }
  out.value(static_cast<std::int64_t>(product.value.size()));
  out.array(product.a);
  out.array(product.b_transposed);
  out.array(product.row);
  out.array(product.col);
  out.array(product.value);
}

GemmProduct read_gemm(Reader& in) {
  GemmProduct product;
  product.launcher = in.value<std::int32_t>();
  product.variant = in.value<std::int32_t>();
  product.rows = in.side("rows");
  product.inner = in.side("inner");
  product.cols = in.side("cols");
  product.a = in.array<float>(std::int64_t{product.rows} * product.inner);
  product.b = in.array<float>(std::int64_t{product.inner} * product.cols);
  return product;
}

SddmmProduct read_sddmm(Reader& in) {
  SddmmProduct product;
  product.launcher = in.value<std::int32_t>();
  product.variant = in.value<std::int32_t>();
  product.rows = in.side("rows");
  product.inner = in.side("inner");
  product.cols = in.side("cols");
  product.lda = in.side("lda");
  product.ldb = in.side("ldb");
  const auto nnz = in.value<std::int64_t>();
  product.a = in.array<std::uint16_t>(std::int64_t{product.rows} * product.lda);
  product.b_transposed = in.array<std::uint16_t>(std::int64_t{product.cols} * product.ldb);
  product.row = in.array<std::int32_t>(nnz);
  product.col = in.array<std::int32_t>(nnz);
  product.value = in.array<float>(nnz);
  return product;
}

}  // namespace

std::size_t expected_values(const CaseInputs& inputs, std::size_t index) {
  if (index < inputs.gemm.size()) {
    const GemmProduct& product = inputs.gemm[index];
    return static_cast<std::size_t>(product.rows) * static_cast<std::size_t>(product.cols);
  }
  return inputs.sddmm.at(index - inputs.gemm.size()).value.size();
}

void write_inputs(const std::string& path, const CaseInputs& inputs) {
  if (!inputs.gemm.empty() && !inputs.sddmm.empty()) {
    throw std::invalid_argument("a case holds dense products or SDDMMs, not both");
  }
  Writer out(path);
  out.bytes(kInputsMagic.data(), kInputsMagic.size());
  out.value(inputs.sddmm.empty() ? kGemm : kSddmm);
  out.value(static_cast<std::uint32_t>(inputs.size()));
  for (const GemmProduct& product : inputs.gemm) {
    write_gemm(out, product);
  }
  for (const SddmmProduct& product : inputs.sddmm) {
    write_sddmm(out, product);
  }
  out.finish();
}

CaseInputs read_inputs(const std::string& path) {
  Reader in(path, std::numeric_limits<std::size_t>::max());
  in.expect(kInputsMagic);
  const auto kind = in.value<std::uint32_t>();
  const auto count = in.value<std::uint32_t>();
  if ((kind != kGemm && kind != kSddmm) || count > kMaxProducts) {
    throw std::runtime_error(path + ": unknown kind or too many products");
  }
  CaseInputs inputs;
  for (std::uint32_t index = 0; index < count; ++index) {
    if (kind == kGemm) {
      inputs.gemm.push_back(read_gemm(in));
    } else {
      inputs.sddmm.push_back(read_sddmm(in));
    }
  }
  if (!in.done()) {
    throw std::runtime_error(path + " has bytes after its last product");
  }
  return inputs;
}

void write_outputs(const std::string& path, const std::vector<ProductOutput>& outputs) {
  Writer out(path);
  out.bytes(kOutputsMagic.data(), kOutputsMagic.size());
  out.value(static_cast<std::uint32_t>(outputs.size()));
  for (const ProductOutput& output : outputs) {
    out.value(output.status);
    out.value(static_cast<std::uint64_t>(output.values.size()));
    out.array(output.values);
  }
  out.finish();
}

std::vector<ProductOutput> read_outputs(const std::string& path, const CaseInputs& inputs) {
  std::size_t limit = kOutputsMagic.size() + sizeof(std::uint32_t);
  for (std::size_t index = 0; index < inputs.size(); ++index) {
    limit += sizeof(std::int32_t) + sizeof(std::uint64_t) + expected_values(inputs, index) * 4;
  }
  Reader in(path, limit);
  in.expect(kOutputsMagic);
  const auto count = in.value<std::uint32_t>();
  if (count > inputs.size()) {
    throw std::runtime_error(path + " answers " + std::to_string(count) +
                             " products, the case has " + std::to_string(inputs.size()));
  }
  std::vector<ProductOutput> outputs(count);
  for (std::size_t index = 0; index < count; ++index) {
    outputs[index].status = in.value<std::int32_t>();
    const auto size = in.value<std::uint64_t>();
    if (size > expected_values(inputs, index)) {
      throw std::runtime_error(path + ": product " + std::to_string(index) + " has " +
                               std::to_string(size) + " values, more than it needs");
    }
    outputs[index].values = in.array<float>(static_cast<std::int64_t>(size));
  }
  return outputs;
}

}  // namespace course::judge
