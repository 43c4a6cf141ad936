// SPDX-License-Identifier: Apache-2.0
// The single main() of every Boost.Test executable of the project.
#define BOOST_TEST_MODULE npu_pipeline_tests
#include <boost/test/unit_test.hpp>
