// SPDX-License-Identifier: Apache-2.0
// OperationView: what Vela's reader would have made of an operation's input tensors.
#include "operation_view.hpp"

#include <boost/test/unit_test.hpp>

namespace {

npu::Tensor featureMap(const std::string& name) {
  npu::Tensor tensor;
  tensor.name = name;
  tensor.shape = npu::Shape{1, 4};
  tensor.type = npu::DataType::Int8;
  return tensor;
}

} // namespace

BOOST_AUTO_TEST_SUITE(operation_view)

BOOST_AUTO_TEST_CASE(an_input_written_by_an_earlier_or_a_later_operation_is_not_a_constant_without_values) {
  npu::Subgraph subgraph;
  const npu::TensorId input = subgraph.addTensor(featureMap("input"));
  const npu::TensorId early = subgraph.addTensor(featureMap("early"));
  const npu::TensorId late = subgraph.addTensor(featureMap("late"));
  const npu::TensorId orphan = subgraph.addTensor(featureMap("orphan")); // no data, no producer
  const npu::TensorId output = subgraph.addTensor(featureMap("output"));
  npu::Operation first;
  first.type = npu::OpType::Add;
  first.inputs = {input, input};
  first.outputs = {early};
  npu::Operation middle;
  middle.type = npu::OpType::Add;
  middle.inputs = {early, late};
  middle.outputs = {output};
  npu::Operation last; // writes `late` after the operation reading it (graphs are not always in order)
  last.type = npu::OpType::Add;
  last.inputs = {orphan, input};
  last.outputs = {late};
  subgraph.addOperation(first);
  subgraph.addOperation(middle);
  subgraph.addOperation(last);
  subgraph.inputs = {input};
  subgraph.outputs = {output};

  const ethosu::support::OperationView reader(subgraph, subgraph.operations[1]);
  BOOST_TEST(!reader.isConstantWithoutValues(early));
  BOOST_TEST(!reader.isConstantWithoutValues(late));
  const ethosu::support::OperationView lastReader(subgraph, subgraph.operations[2]);
  BOOST_TEST(lastReader.isConstantWithoutValues(orphan));
  BOOST_TEST(!lastReader.isConstantWithoutValues(input)); // a subgraph input without data is a placeholder
}

BOOST_AUTO_TEST_SUITE_END()
