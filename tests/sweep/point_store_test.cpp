// SPDX-License-Identifier: Apache-2.0
// Point files: content keys, round trips, atomic writes.
#include "npu/core/sha256.hpp"
#include "point_store.hpp"

#include "test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu::sweep;
using npu::Sha256;

BOOST_AUTO_TEST_SUITE(sweep_point_store)

BOOST_AUTO_TEST_CASE(sha256_matches_the_published_test_vectors) {
  BOOST_TEST(Sha256().hexDigest() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  BOOST_TEST(Sha256().update("abc").hexDigest() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  BOOST_TEST(Sha256().update("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").hexDigest() ==
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  BOOST_TEST(Sha256().update(std::string(1000000, 'a')).hexDigest() ==
             "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // Fed in uneven pieces, across block boundaries: the same digest.
  Sha256 pieces;
  for (std::size_t size : {1U, 62U, 1U, 64U, 200U, 0U, 671U}) {
    pieces.update(std::string(size, 'a'));
  }
  BOOST_TEST(pieces.hexDigest() == Sha256().update(std::string(999, 'a')).hexDigest());
  BOOST_TEST(contentHash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

BOOST_AUTO_TEST_CASE(a_point_key_changes_with_the_network_the_pipeline_or_the_version) {
  const std::string key = pointKey("0.1.0", "network", "pipeline");
  BOOST_TEST(key.size() == 64U);
  BOOST_TEST(key == pointKey("0.1.0", "network", "pipeline"));
  BOOST_TEST(key != pointKey("0.1.1", "network", "pipeline"));
  BOOST_TEST(key != pointKey("0.1.0", "network2", "pipeline"));
  BOOST_TEST(key != pointKey("0.1.0", "network", "pipeline2"));
}

BOOST_AUTO_TEST_CASE(a_stored_point_reads_back_as_written_with_its_column_order) {
  const npu::test::TemporaryDirectory folder;
  const PointStore store(folder.path() / "points");
  const PointResult result{std::string(64, 'a'),
                           "models/a \"b\".tflite",
                           {{"accelerator.config", "ethos-u55-64"}},
                           "failed",
                           "does not fit: 5 > 4\tbytes",
                           {{"zeta", "1"}, {"alpha", "2.5e-05"}, {"empty", ""}}};
  store.save(result);
  const auto loaded = store.load(result.key);
  BOOST_REQUIRE(loaded.has_value());
  BOOST_TEST(loaded->network == result.network);
  BOOST_TEST(loaded->reason == result.reason);
  BOOST_TEST(loaded->settings == result.settings);
  BOOST_TEST(loaded->summary == result.summary);
  BOOST_TEST(!store.load(std::string(64, 'b')).has_value());
}

BOOST_AUTO_TEST_CASE(a_damaged_or_foreign_point_file_counts_as_not_done) {
  const npu::test::TemporaryDirectory folder;
  const PointStore store(folder.path());
  npu::test::writeFile(store.fileFor("k1"), "{\"format\": \"npu-pipeline sweep point 1\", \"key\": \"k1\", \"netw");
  npu::test::writeFile(store.fileFor("k2"), "{}");
  BOOST_TEST(!store.load("k1").has_value());
  BOOST_TEST(!store.load("k2").has_value());
}

BOOST_AUTO_TEST_CASE(an_atomic_write_leaves_only_the_finished_file) {
  const npu::test::TemporaryDirectory folder;
  writeFileAtomically(folder.path() / "f.csv", "one");
  writeFileAtomically(folder.path() / "f.csv", "two");
  BOOST_TEST(npu::test::readFile(folder.path() / "f.csv") == "two");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder.path())) {
    ++files;
  }
  BOOST_TEST(files == 1U);
}

BOOST_AUTO_TEST_SUITE_END()
