/**
 * `EventEmitter`: events with different shapes for log decoding — `Ping` (two indexed, one
 * string), `Data` (indexed bytes32, dynamic bytes) and the anonymous `Stored` (no topic0).
 */
export const EVENT_EMITTER_SOURCE = /* solidity */ `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract EventEmitter {
    uint256 public pings;
    mapping(bytes32 => bytes) public data;

    event Ping(address indexed from, uint256 indexed n, string note);
    event Data(bytes32 indexed key, bytes value);
    event Stored(address indexed by, bytes32 indexed key, uint256 size) anonymous;

    function ping(string calldata note) external returns (uint256 n) {
        n = ++pings;
        emit Ping(msg.sender, n, note);
    }

    function store(bytes32 key, bytes calldata value) external {
        data[key] = value;
        emit Data(key, value);
        emit Stored(msg.sender, key, value.length);
    }
}
`;
