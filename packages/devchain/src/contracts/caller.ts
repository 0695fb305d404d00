/**
 * `Caller`: produces nested traces — `callPing` calls `EventEmitter.ping` (the log's emitter is
 * the callee, its `from` topic is `Caller`), `deployChild` creates a `Child` with `new`,
 * forwarding any value, and emits `ChildDeployed`.
 */
export const CALLER_SOURCE = /* solidity */ `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IPing {
    function ping(string calldata note) external returns (uint256);
}

contract Child {
    address public immutable parent;

    constructor() payable {
        parent = msg.sender;
    }
}

contract Caller {
    address[] public children;

    event ChildDeployed(address indexed child);

    function callPing(address emitter, string calldata note) external returns (uint256) {
        return IPing(emitter).ping(note);
    }

    function deployChild() external payable returns (address child) {
        child = address(new Child{value: msg.value}());
        children.push(child);
        emit ChildDeployed(child);
    }

    function childCount() external view returns (uint256) {
        return children.length;
    }
}
`;
