// SPDX-License-Identifier: Apache-2.0
#include "ethosu/architecture/variant.hpp"

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(variant_table)

BOOST_AUTO_TEST_CASE(every_vela_accelerator_config_is_a_variant) {
  for (const auto* name :
       {"ethos-u55-32", "ethos-u55-64", "ethos-u55-128", "ethos-u55-256", "ethos-u65-256", "ethos-u65-512"}) {
    BOOST_TEST_CONTEXT(name) {
      BOOST_TEST(ethosu::findVariant(name) != nullptr);
    }
  }
  BOOST_TEST(ethosu::allVariants().size() == 6U);
  BOOST_TEST(ethosu::findVariant("ethos-u55-512") == nullptr);
}

BOOST_AUTO_TEST_CASE(variant_names_are_matched_without_regard_to_case) {
  BOOST_TEST(ethosu::findVariant("Ethos-U55-128") == ethosu::findVariant("ethos-u55-128"));
}

BOOST_AUTO_TEST_CASE(u65_512_has_two_cores_of_256_macs) {
  const auto* variant = ethosu::findVariant("ethos-u65-512");
  BOOST_TEST(variant->cores == 2);
  BOOST_TEST(variant->macsPerCycle == 256);
  BOOST_TEST(variant->isEthosU65());
  BOOST_TEST(variant->maxAddressOffset() == std::int64_t{1} << 40);
}

BOOST_AUTO_TEST_CASE(u55_128_has_a_2x1x8_micro_block_and_24_shram_banks) {
  const auto* variant = ethosu::findVariant("ethos-u55-128");
  BOOST_TEST(variant->ofmMicroBlock == npu::Shape4(1, 1, 2, 8));
  BOOST_TEST(variant->shramBanks == 24);
  BOOST_TEST(variant->outputCycles(ethosu::OutputPerformance::AdvancedAddSub) == 1.5);
  BOOST_TEST(variant->activationCycles(ethosu::ActivationPerformance::Relu) == 0.5);
  BOOST_TEST(variant->displayName == "Ethos_U55_128");
}

BOOST_AUTO_TEST_CASE(each_family_lists_its_own_variants) {
  BOOST_TEST(ethosu::variantNames(ethosu::NpuFamily::EthosU55).size() == 4U);
  BOOST_TEST(ethosu::variantNames(ethosu::NpuFamily::EthosU65).size() == 2U);
  for (const auto name : ethosu::variantNames(ethosu::NpuFamily::EthosU65)) {
    BOOST_TEST(ethosu::findVariant(name)->isEthosU65());
  }
}

BOOST_AUTO_TEST_SUITE_END()
