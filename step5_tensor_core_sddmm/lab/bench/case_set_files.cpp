/// @file case_set_files.cpp
/// @brief parse_mask_set(), parse_shape_set() and their file versions: one line at a time,
/// with limits on the line length and the number of lines, every error naming its line.
///
/// Step 5, the lab: reading the mask and shape sets.
/// Read first: case_set_files.hpp (the format).
#include "step5_tensor_core_sddmm/lab/bench/case_set_files.hpp"

#include "common/random_sampling.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>

namespace course::step5::bench {
namespace {

/// Reads one line into @p line, at most kMaxSetLineBytes + 1 characters of it (so that a
/// file without line breaks is never read whole); false at the end of the input.
bool bounded_line(std::istream& input, std::string& line) {
  line.clear();
  char character = 0;
  bool any = false;
  while (input.get(character)) {
    any = true;
    if (character == '\n') {
      return true;
    }
    if (line.size() > kMaxSetLineBytes) {
      return true;  // too long: the caller refuses it by its size
    }
    line.push_back(character);
  }
  return any;
}

/// Reads @p input line by line (comments and blank lines skipped), calling @p parse_line
/// with the words of each line; errors thrown by it get the source and line number.
void for_each_line(std::istream& input, const std::string& source,
                   const std::function<void(std::vector<std::string>&)>& parse_line) {
  std::string line;
  int number = 0;
  while (bounded_line(input, line)) {
    ++number;
    const std::string where = source + ":" + std::to_string(number) + ": ";
    if (number > kMaxSetLines) {
      throw std::runtime_error(where + "more than " + std::to_string(kMaxSetLines) +
                               " lines; a set holds a few dozen");
    }
    if (line.size() > kMaxSetLineBytes) {
      throw std::runtime_error(where + "line longer than " + std::to_string(kMaxSetLineBytes) +
                               " bytes");
    }
    const std::size_t comment = line.find('#');
    std::istringstream words(line.substr(0, comment));
    std::vector<std::string> items;
    for (std::string word; words >> word;) {
      items.push_back(word);
    }
    if (items.empty()) {
      continue;
    }
    try {
      parse_line(items);
    } catch (const std::exception& error) {
      throw std::runtime_error(where + error.what());
    }
  }
}

long long whole_number(const std::string& key, const std::string& text, long long min,
                       long long max) {
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || value < min || value > max) {
    throw std::runtime_error(key + " must be a whole number in [" + std::to_string(min) + ", " +
                             std::to_string(max) + "], got '" + text + "'");
  }
  return value;
}

double real_number(const std::string& key, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno == ERANGE || !(value == value)) {
    throw std::runtime_error(key + " must be a number, got '" + text + "'");
  }
  return value;
}

constexpr int kMaxInner = 65536;

std::vector<int> inner_list(const std::string& text) {
  std::vector<int> inners;
  std::istringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    const int inner = static_cast<int>(whole_number("inner", item, 1, kMaxInner));
    for (const int seen : inners) {
      if (seen == inner) {
        throw std::runtime_error("inner lists " + item + " twice");
      }
    }
    inners.push_back(inner);
  }
  if (inners.empty()) {
    throw std::runtime_error("inner needs at least one value");
  }
  return inners;
}

/// The `values=` word: ones, random, or a finite number (1 is ones).
MaskValues values_word(const std::string& text) {
  MaskValues values;
  if (text == "ones") {
    return values;
  }
  if (text == "random") {
    values.kind = MaskValues::Kind::random;
    return values;
  }
  const double constant = real_number("values", text);
  if (!std::isfinite(constant) || std::fabs(constant) > 3.0e38) {
    throw std::runtime_error("values must be ones, random or a finite float, got '" + text + "'");
  }
  if (constant != 1.0) {
    values.kind = MaskValues::Kind::constant;
    values.constant = constant;
  }
  return values;
}

/// The name's suffix for @p values: none for ones, `_v<value>` or `_vrand`.
std::string values_suffix(const MaskValues& values, const std::string& text) {
  switch (values.kind) {
    case MaskValues::Kind::ones:
      return "";
    case MaskValues::Kind::constant:
      return "_v" + text;
    case MaskValues::Kind::random:
      return "_vrand";
  }
  return "";
}

/// The key=value words of a mask line (its kind, @p words[0], left out), each key once; sets
/// @p causal when the flag causal is among them.
std::map<std::string, std::string> key_values(const std::vector<std::string>& words, bool& causal) {
  std::map<std::string, std::string> values;
  for (std::size_t index = 1; index < words.size(); ++index) {
    const std::string& word = words[index];
    if (word == "causal") {
      causal = true;
      continue;
    }
    const std::size_t equals = word.find('=');
    if (equals == std::string::npos) {
      throw std::runtime_error("'" + word + "' is neither key=value nor the flag causal");
    }
    const std::string key = word.substr(0, equals);
    if (!values.emplace(key, word.substr(equals + 1)).second) {
      throw std::runtime_error(key + " is given twice");
    }
  }
  return values;
}

/// Sets the field of @p entry that @p key names from @p text (values is read later).
void apply_key(const std::string& key, const std::string& text, MaskSetEntry& entry) {
  course::AttentionMaskSpec& spec = entry.spec;
  if (key == "rows") {
    spec.rows = static_cast<int>(whole_number(key, text, 1, INT_MAX));
  } else if (key == "cols") {
    spec.cols = static_cast<int>(whole_number(key, text, 1, INT_MAX));
  } else if (key == "block") {
    spec.block_size = static_cast<int>(whole_number(key, text, 1, INT_MAX));
  } else if (key == "density") {
    spec.block_density = real_number(key, text);
  } else if (key == "window") {
    spec.half_width = static_cast<int>(whole_number(key, text, 0, INT_MAX));
  } else if (key == "global") {
    spec.global = static_cast<int>(whole_number(key, text, 0, INT_MAX));
  } else if (key == "random") {
    spec.random_per_row = static_cast<int>(whole_number(key, text, 0, INT_MAX));
  } else if (key == "seed") {
    spec.seed = static_cast<std::uint64_t>(whole_number(key, text, 0, LLONG_MAX));
    entry.seeded = true;
  } else if (key == "inner") {
    entry.inners = inner_list(text);
  } else if (key != "values") {  // values: one mask per listed word, once the structure is known
    throw std::runtime_error("unknown key '" + key +
                             "' (rows, cols, block, density, window, global, random, seed, "
                             "values, inner, and the flag causal)");
  }
}

/// One mask per word of @p list (a values= list; "ones" when the line gives none), each
/// named after @p structure and its values.
std::vector<MaskSetEntry> valued_entries(const MaskSetEntry& structure, const std::string& list) {
  std::vector<std::string> words_of_values;
  std::istringstream words(list);
  for (std::string word; std::getline(words, word, ',');) {
    words_of_values.push_back(word);
  }
  if (words_of_values.empty()) {
    throw std::runtime_error("values needs at least one of ones, random or a number");
  }
  std::vector<MaskSetEntry> entries;
  for (const std::string& word : words_of_values) {
    MaskSetEntry valued = structure;
    valued.values = values_word(word);
    valued.name = structure.structure + values_suffix(valued.values, word);
    for (const MaskSetEntry& earlier : entries) {
      if (earlier.name == valued.name) {
        throw std::runtime_error("values lists " + word + " twice");
      }
    }
    entries.push_back(valued);
  }
  return entries;
}

/// The masks of one line (kind first, then key=value words and flags): one per word of its
/// `values` list (one mask when it has none).
std::vector<MaskSetEntry> mask_line(const std::vector<std::string>& words) {
  MaskSetEntry entry;
  const bool causal_kind = words[0] == "causal";
  course::AttentionMaskSpec& spec = entry.spec;
  spec.kind = causal_kind ? course::AttentionKind::sliding_window
                          : course::attention_kind_from_name(words[0]);
  spec.causal = causal_kind;
  const std::map<std::string, std::string> values = key_values(words, spec.causal);
  for (const auto& [key, text] : values) {
    apply_key(key, text, entry);
  }
  if (spec.rows == 0) {
    throw std::runtime_error("rows is missing");
  }
  if (entry.inners.empty()) {
    throw std::runtime_error("inner is missing (e.g. inner=64,128,256)");
  }
  if (spec.cols == 0) {
    spec.cols = spec.rows;
  }
  if (causal_kind) {
    spec.half_width = std::max(spec.rows, spec.cols) - 1;  // every column up to the diagonal
    spec.global = 0;
  }
  course::check_attention_mask(spec);
  entry.structure = course::attention_mask_name(spec) +
                    (entry.seeded ? "_s" + std::to_string(spec.seed) : std::string());
  const auto given = values.find("values");
  return valued_entries(entry, given == values.end() ? std::string("ones") : given->second);
}

template <typename Entry>
std::vector<Entry> read_set(const std::string& path,
                            std::vector<Entry> (*parse)(std::istream&, const std::string&)) {
  std::ifstream file(path);
  if (!file) {
    throw std::runtime_error("cannot read " + path);
  }
  return parse(file, path);
}

}  // namespace

void apply_mask_values(course::CooMatrix& mask, const MaskValues& values, std::uint64_t seed) {
  switch (values.kind) {
    case MaskValues::Kind::ones:
      return;  // attention_mask writes ones
    case MaskValues::Kind::constant:
      std::fill(mask.values.begin(), mask.values.end(), static_cast<float>(values.constant));
      return;
    case MaskValues::Kind::random: {
      // Another stream than the mask's own draws: the seed is mixed first.
      course::Random random(seed ^ 0x5DEECE66DULL);
      constexpr std::uint64_t kSteps = std::uint64_t{1} << 24;  // exact in a float
      for (float& value : mask.values) {
        value = static_cast<float>(random.below(kSteps)) / static_cast<float>(kSteps / 2) - 1.0f;
      }
      return;
    }
  }
}

std::vector<MaskSetEntry> parse_mask_set(std::istream& input, const std::string& source) {
  std::vector<MaskSetEntry> entries;
  for_each_line(input, source, [&](std::vector<std::string>& words) {
    const std::vector<MaskSetEntry> masks = mask_line(words);
    entries.insert(entries.end(), masks.begin(), masks.end());
  });
  if (entries.empty()) {
    throw std::runtime_error(source + ": no mask (each line: a kind and key=value words)");
  }
  return entries;
}

std::vector<MaskSetEntry> read_mask_set(const std::string& path) {
  return read_set(path, &parse_mask_set);
}

std::vector<ShapeSetEntry> parse_shape_set(std::istream& input, const std::string& source) {
  std::vector<ShapeSetEntry> entries;
  for_each_line(input, source, [&](std::vector<std::string>& words) {
    if (words.size() != 4) {
      throw std::runtime_error("a shape is four whole numbers 'rows inner cols nnz', got " +
                               std::to_string(words.size()) + " words");
    }
    ShapeSetEntry shape;
    shape.rows = static_cast<int>(whole_number("rows", words[0], 1, INT_MAX));
    shape.inner = static_cast<int>(whole_number("inner", words[1], 1, kMaxInner));
    shape.cols = static_cast<int>(whole_number("cols", words[2], 1, INT_MAX));
    const long long positions = static_cast<long long>(shape.rows) * shape.cols;
    shape.nnz = whole_number("nnz", words[3], 0, std::min<long long>(positions, INT_MAX));
    entries.push_back(shape);
  });
  if (entries.empty()) {
    throw std::runtime_error(source + ": no shape (each line: rows inner cols nnz)");
  }
  return entries;
}

std::vector<ShapeSetEntry> read_shape_set(const std::string& path) {
  return read_set(path, &parse_shape_set);
}

}  // namespace course::step5::bench
