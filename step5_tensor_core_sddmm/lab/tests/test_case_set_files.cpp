/// @file test_case_set_files.cpp
/// @brief CPU tests of --masks and --shapes files: every kind and key, the causal kind,
/// defaults, and the refusals (unknown kind or key, bad numbers, repeated inner values, a
/// mask the generator refuses, long lines, empty sets), each naming its line; and the
/// committed sets parse.
///
/// Step 5, tests (the lab): the benchmark's mask and shape sets.
/// Read first: lab/case_set_files.hpp (the format).
#include "common/testing/catch2.hpp"

#include "step5_tensor_core_sddmm/lab/bench/case_set_files.hpp"
#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"

#include <algorithm>

#include <sstream>
#include <stdexcept>
#include <string>

namespace {

using course::step5::bench::parse_mask_set;
using course::step5::bench::parse_shape_set;

std::vector<course::step5::bench::MaskSetEntry> masks_of(const std::string& text) {
  std::istringstream input(text);
  return parse_mask_set(input, "set.txt");
}

/// The message of the error that parsing @p text throws ("" when it throws none).
std::string mask_error(const std::string& text) {
  try {
    masks_of(text);
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("mask sets read every kind and key") {
  const auto masks = masks_of(
      "# a comment line\n"
      "block-sparse rows=4096 cols=8192 block=16 density=0.03 seed=7 inner=64,128 # trailing\n"
      "\n"
      "sliding-window rows=1000 window=32 global=4 causal inner=256\n"
      "bigbird rows=2000 window=8 global=2 random=5 inner=64\n"
      "causal rows=300 inner=17\n");
  REQUIRE(masks.size() == 4);
  CHECK(masks[0].spec.kind == course::AttentionKind::block_sparse);
  CHECK(masks[0].spec.rows == 4096);
  CHECK(masks[0].spec.cols == 8192);
  CHECK(masks[0].spec.block_size == 16);
  CHECK(masks[0].spec.block_density == Approx(0.03));
  CHECK(masks[0].spec.seed == 7);
  CHECK(masks[0].seeded);
  CHECK(masks[0].inners == std::vector<int>{64, 128});
  CHECK(masks[0].name.find("_s7") != std::string::npos);
  CHECK(masks[1].spec.causal);
  CHECK(masks[1].spec.cols == 1000);  // cols defaults to rows
  CHECK(masks[1].spec.half_width == 32);
  CHECK_FALSE(masks[1].seeded);
  CHECK(masks[2].spec.random_per_row == 5);
  // The causal kind: a causal window covering every column.
  CHECK(masks[3].spec.kind == course::AttentionKind::sliding_window);
  CHECK(masks[3].spec.causal);
  CHECK(masks[3].spec.half_width == 299);
  CHECK(course::attention_mask_max_nnz(masks[3].spec) == 300u * 301u / 2u);
}

TEST_CASE("mask sets give the same structure as a pattern and with values") {
  const auto masks = masks_of(
      "block-sparse rows=500 block=16 density=0.2 inner=64\n"
      "block-sparse rows=500 block=16 density=0.2 values=0.5 inner=64\n"
      "block-sparse rows=500 block=16 density=0.2 values=random inner=64\n"
      "block-sparse rows=500 block=16 density=0.2 values=1 inner=64\n");
  REQUIRE(masks.size() == 4);
  using Kind = course::step5::bench::MaskValues::Kind;
  CHECK(masks[0].values.kind == Kind::ones);
  CHECK(masks[1].values.kind == Kind::constant);
  CHECK(masks[1].values.constant == 0.5);
  CHECK(masks[2].values.kind == Kind::random);
  CHECK(masks[3].values.kind == Kind::ones);  // values=1 is a pattern
  CHECK(masks[1].name == masks[0].name + "_v0.5");
  CHECK(masks[2].name == masks[0].name + "_vrand");
  CHECK(masks[3].name == masks[0].name);
  for (const auto& mask : masks) {
    CHECK(mask.structure == masks[0].name);
  }
  // The cases draw the same mask for each (the seed comes from the structure's name).
  const auto cases = course::step5::bench::mask_set_cases(masks, "set", 3);
  REQUIRE(cases.size() == 4);
  const course::CooMatrix pattern = cases[0].make();
  const course::CooMatrix half = cases[1].make();
  const course::CooMatrix random = cases[2].make();
  REQUIRE(pattern.nnz() > 0);
  CHECK(half.row_indices == pattern.row_indices);
  CHECK(half.col_indices == pattern.col_indices);
  CHECK(random.col_indices == pattern.col_indices);
  CHECK(
      std::all_of(pattern.values.begin(), pattern.values.end(), [](float v) { return v == 1.0f; }));
  CHECK(std::all_of(half.values.begin(), half.values.end(), [](float v) { return v == 0.5f; }));
  CHECK(std::all_of(random.values.begin(), random.values.end(),
                    [](float v) { return v >= -1.0f && v < 1.0f; }));
  CHECK(std::any_of(random.values.begin(), random.values.end(), [](float v) { return v < 0.0f; }));
  CHECK(std::any_of(random.values.begin(), random.values.end(), [](float v) { return v > 0.0f; }));
  // A list: the line's mask once per word, in order.
  const auto listed = masks_of("causal rows=100 values=ones,random,0.25 inner=64\n");
  REQUIRE(listed.size() == 3);
  CHECK(listed[0].values.kind == Kind::ones);
  CHECK(listed[1].values.kind == Kind::random);
  CHECK(listed[2].values.constant == 0.25);
  CHECK(listed[2].name == listed[0].name + "_v0.25");
  CHECK(mask_error("causal rows=100 values=ones,1 inner=64\n").find("twice") != std::string::npos);
  CHECK(mask_error("causal rows=100 values=many inner=64\n").find("values") != std::string::npos);
  CHECK(mask_error("causal rows=100 values=inf inner=64\n").find("values") != std::string::npos);
}

TEST_CASE("mask sets refuse bad lines naming the line") {
  CHECK(mask_error("block-sparse rows=100 inner=64\nfoo rows=100 inner=64\n").find("set.txt:2") !=
        std::string::npos);
  CHECK(mask_error("block-sparse rows=10 colour=3 inner=64\n").find("unknown key 'colour'") !=
        std::string::npos);
  CHECK(mask_error("block-sparse rows=ten inner=64\n").find("rows must be a whole number") !=
        std::string::npos);
  CHECK(mask_error("block-sparse rows=100 inner=64,64\n").find("twice") != std::string::npos);
  CHECK(mask_error("block-sparse rows=100 rows=200 inner=64\n").find("twice") != std::string::npos);
  CHECK(mask_error("block-sparse rows=100 inner=0\n").find("inner") != std::string::npos);
  CHECK(mask_error("block-sparse rows=100\n").find("inner is missing") != std::string::npos);
  CHECK(mask_error("block-sparse inner=64\n").find("rows is missing") != std::string::npos);
  CHECK(mask_error("block-sparse rows=100 block=16 density=1.5 inner=64\n") != "");
  CHECK(mask_error("block-sparse rows=100 density=nan inner=64\n") != "");
  CHECK(mask_error("block-sparse rows=100 dense inner=64\n").find("neither key=value") !=
        std::string::npos);
  CHECK(mask_error("# only comments\n\n").find("no mask") != std::string::npos);
  CHECK(mask_error("block-sparse rows=100 inner=64 #" + std::string(5000, 'x') + "\n")
            .find("longer than") != std::string::npos);
  // A line without a line break, longer than the limit, is refused without reading it all.
  CHECK(mask_error(std::string(100000, 'y')).find("longer than") != std::string::npos);
}

TEST_CASE("shape sets read rows inner cols nnz") {
  std::istringstream input("# rows inner cols nnz\n3000 256 7000 313110\n4000 64 4000 88000\n");
  const auto shapes = parse_shape_set(input, "shapes.txt");
  REQUIRE(shapes.size() == 2);
  CHECK(shapes[0].rows == 3000);
  CHECK(shapes[0].inner == 256);
  CHECK(shapes[0].cols == 7000);
  CHECK(shapes[0].nnz == 313110);
  CHECK(shapes[1].inner == 64);
  const auto refused = [](const std::string& text) {
    std::istringstream bad(text);
    try {
      parse_shape_set(bad, "shapes.txt");
    } catch (const std::runtime_error& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  CHECK(refused("10 64 10 101\n").find("nnz must be") != std::string::npos);     // > rows·cols
  CHECK(refused("10 64 10 100\n").empty());                                      // every position
  CHECK(refused("10 70000 10 5\n").find("inner must be") != std::string::npos);  // > 65536
  CHECK(refused("10 64 10\n").find("four whole numbers") != std::string::npos);
  CHECK(refused("10 64 10 5 1\n").find("shapes.txt:1") != std::string::npos);
  CHECK(refused("\n").find("no shape") != std::string::npos);
}

TEST_CASE("the committed sets parse") {
  const std::string folder = COURSE_STEP5_SETS;
  const auto public_set = course::step5::bench::read_mask_set(folder + "/attention_public.txt");
  const auto other_set = course::step5::bench::read_mask_set(folder + "/attention_other.txt");
  CHECK(public_set.size() >= 17);
  CHECK(other_set.size() >= 10);
  // The public set holds block sizes 16 to 128 and causal masks at inner 64, 128 and 256.
  bool block16 = false;
  bool block128 = false;
  bool causal_at_every_inner = false;
  for (const auto& mask : public_set) {
    block16 = block16 ||
              (mask.spec.kind == course::AttentionKind::block_sparse && mask.spec.block_size == 16);
    block128 = block128 || (mask.spec.kind == course::AttentionKind::block_sparse &&
                            mask.spec.block_size == 128);
    causal_at_every_inner = causal_at_every_inner ||
                            (mask.spec.causal && mask.inners == std::vector<int>{64, 128, 256});
  }
  CHECK(block16);
  CHECK(block128);
  CHECK(causal_at_every_inner);
  // No mask of the other set is one of the public set's.
  for (const auto& other : other_set) {
    for (const auto& mask : public_set) {
      CHECK(other.name != mask.name);
    }
  }
  CHECK(course::step5::bench::read_shape_set(folder + "/note_shapes.txt").size() == 16);
  CHECK(course::step5::bench::read_shape_set(folder + "/note_shapes_all.txt").size() == 17);
}
