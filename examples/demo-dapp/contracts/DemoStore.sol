// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// A one-slot store for the demo dapp: `setValue(0)` reverts with a reason string, so the demo can
/// show a reverted transaction next to a successful one.
contract DemoStore {
    uint256 public value;

    event ValueSet(address indexed by, uint256 value);

    function setValue(uint256 newValue) external {
        require(newValue != 0, "DemoStore: value must not be zero");
        value = newValue;
        emit ValueSet(msg.sender, newValue);
    }
}
