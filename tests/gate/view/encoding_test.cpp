// How the view page packs its numbers (gate/view/encoding.h): integer counts
// of 10^-digits, differenced, read back to within half a count; text that
// cannot end the page's script element.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gate/view/encoding.h"
#include "gate/view/page.h"

namespace stepslide {
namespace {

using view::Json;

/// What the page's decodeColumn does (gate/view/assets/decode.js), in C++.
std::vector<double> decode_column(const Json& column) {
  std::vector<double> values;
  if (column.contains("text")) {
    for (const Json& t : column["text"]) {
      const std::string s = t.get<std::string>();
      values.push_back(s == "nan" ? std::nan("") : s == "inf" ? INFINITY : s == "-inf" ? -INFINITY : std::stod(s));
    }
    return values;
  }
  const double scale = std::pow(10.0, column["digits"].get<int>());
  for (std::int64_t n : view::delta_decode(column["delta"], 1)) values.push_back(static_cast<double>(n) / scale);
  return values;
}

TEST(ViewEncoding, QuantiseRoundsHalvesAwayFromZero) {
  EXPECT_EQ(view::quantise(0.125, 2), 13);  // 12.5 counts, exactly
  EXPECT_EQ(view::quantise(-0.375, 2), -38);
  EXPECT_EQ(view::quantise(1.2345674, 6), 1234567);
  EXPECT_EQ(view::quantise(-0.0, 6), 0);
  EXPECT_EQ(view::quantise(1e6, 6), 1000000000000);  // the largest coordinate a scenario allows
  EXPECT_TRUE(view::quantisable(1e9, 6));
  EXPECT_FALSE(view::quantisable(1e10, 6));  // 1e16 counts: beyond 2^53
  EXPECT_FALSE(view::quantisable(std::nan(""), 0));
  EXPECT_FALSE(view::quantisable(INFINITY, 0));
  EXPECT_THROW(view::quantise(std::nan(""), 6), std::invalid_argument);
}

TEST(ViewEncoding, DeltasRoundTripWithTheirStride) {
  const std::vector<std::int64_t> values{10, 20, 30, 11, 19, 33, 11, 19, 40};
  const Json deltas = view::delta_encode(values, 3);
  EXPECT_EQ(deltas.dump(), "[10,20,30,1,-1,3,0,0,7]");
  EXPECT_EQ(view::delta_decode(deltas, 3), values);
  EXPECT_EQ(view::delta_decode(view::delta_encode(values, 1), 1), values);
  EXPECT_EQ(view::delta_encode({}, 3).dump(), "[]");
}

TEST(ViewEncoding, ColumnsOfIntegersKeepNoDigits) {
  const Json column = view::encode_column({0, 1, 1, 1, 0, -1}, 6);
  EXPECT_EQ(column.dump(), R"({"digits":0,"delta":[0,1,0,0,-1,-1]})");
}

TEST(ViewEncoding, ColumnsReadBackWithinHalfACount) {
  const std::vector<double> values{0.1, -2.718281828, 1e-7, 123456.789012345, 0.3333333333};
  const Json column = view::encode_column(values, 6);
  EXPECT_EQ(column["digits"], 6);
  const std::vector<double> back = decode_column(column);
  ASSERT_EQ(back.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) EXPECT_NEAR(back[i], values[i], 0.5e-6 + 1e-12) << i;
  EXPECT_EQ(back[0], 0.1);  // a count over a power of ten reads back as the nearest double
}

TEST(ViewEncoding, ColumnsWithNonFiniteValuesAreWrittenAsText) {
  const Json column = view::encode_column({1.5, std::nan(""), INFINITY, -INFINITY}, 6);
  EXPECT_EQ(column.dump(), R"({"text":["1.5","nan","inf","-inf"]})");
  const std::vector<double> back = decode_column(column);
  EXPECT_EQ(back[0], 1.5);
  EXPECT_TRUE(std::isnan(back[1]));
  EXPECT_EQ(back[3], -INFINITY);
}

TEST(ViewEncoding, MeshesRoundTrip) {
  view::TriMesh mesh = view::box_mesh(btVector3(0.5, 0.25, 1.12345));
  const Json j = view::encode_mesh(mesh, 4);
  EXPECT_EQ(j["digits"], 4);
  const std::vector<std::int64_t> coordinates = view::delta_decode(j["vertices"], 3);
  const std::vector<std::int64_t> indices = view::delta_decode(j["triangles"], 3);
  ASSERT_EQ(coordinates.size(), 3 * mesh.vertices.size());
  ASSERT_EQ(indices.size(), 3 * mesh.triangles.size());
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
    for (int axis = 0; axis < 3; ++axis) {
      EXPECT_NEAR(static_cast<double>(coordinates[3 * v + axis]) / 1e4, mesh.vertices[v][axis], 0.5e-4);
    }
  }
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    for (int k = 0; k < 3; ++k) EXPECT_EQ(indices[3 * t + k], mesh.triangles[t][k]);
  }
}

TEST(ViewEncoding, RowsAndPointsAreCounts) {
  EXPECT_EQ(view::encode_rows({1, 2, 0.5, 1.5, 2, 0.5}, 3, 1).dump(), R"({"digits":1,"delta":[10,20,5,5,0,0]})");
  EXPECT_EQ(view::encode_point(btVector3(0.12345, -1, 0), 4).dump(), "[1235,-10000,0]");
}

TEST(ViewEncoding, ScriptJsonCannotEndTheScriptElement) {
  const Json data{{"name", "</script><script>alert(1)</script> & more"}};
  const std::string text = view::script_json(data);
  EXPECT_EQ(text.find('<'), std::string::npos);
  EXPECT_EQ(text.find('>'), std::string::npos);
  EXPECT_EQ(text.find('&'), std::string::npos);
  EXPECT_EQ(Json::parse(text), data);  // still the same JSON
  // Invalid UTF-8 (from a file name, say) becomes U+FFFD instead of an exception.
  EXPECT_NO_THROW(view::script_json(Json{{"label", std::string("bad \xff byte")}}));
}

}  // namespace
}  // namespace stepslide
