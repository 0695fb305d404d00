/**
 * `Reverter`: one function per failure kind — a `require` reason string, the custom error
 * `Nope(42)`, a division-by-zero panic (0x12) — and `maybe(ok)`, which succeeds only when `ok`.
 */
export const REVERTER_SOURCE = /* solidity */ `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract Reverter {
    // Written by every function so none of them is "view" and they can be sent as transactions.
    uint256 public calls;

    error Nope(uint256 code);

    function fail() external {
        calls++;
        require(false, "Reverter: always fails");
    }

    function failCustom() external {
        calls++;
        revert Nope(42);
    }

    function panic() external returns (uint256) {
        calls++;
        uint256 zero = calls - calls;
        return calls / zero;
    }

    function maybe(bool ok) external returns (bool) {
        calls++;
        require(ok, "Reverter: not ok");
        return true;
    }
}
`;
