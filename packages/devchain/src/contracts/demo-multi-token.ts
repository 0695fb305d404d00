/**
 * `DemoMultiToken`: a minimal ERC-1155 with owner-only `mint` / `mintBatch` and `setURI` (which
 * emits `URI`), and `burn` / `burnBatch` by the holder or an operator it approved (as
 * OpenZeppelin's ERC1155Burnable). Transfers skip the receiver hooks; events and ERC-165 answers
 * are standard.
 */
export const DEMO_MULTI_TOKEN_SOURCE = /* solidity */ `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract DemoMultiToken {
    address public immutable owner;
    string private _defaultUri;
    mapping(uint256 => string) private _uris;
    mapping(uint256 => mapping(address => uint256)) private _balances;
    mapping(address => mapping(address => bool)) private _operators;

    event TransferSingle(
        address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value
    );
    event TransferBatch(
        address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values
    );
    event ApprovalForAll(address indexed account, address indexed operator, bool approved);
    event URI(string value, uint256 indexed id);

    modifier onlyOwner() {
        require(msg.sender == owner, "DemoMultiToken: not owner");
        _;
    }

    constructor(string memory defaultUri) {
        owner = msg.sender;
        _defaultUri = defaultUri;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0xd9b67a26 || interfaceId == 0x0e89341c || interfaceId == 0x01ffc9a7;
    }

    function uri(uint256 id) external view returns (string memory) {
        return bytes(_uris[id]).length > 0 ? _uris[id] : _defaultUri;
    }

    function setURI(uint256 id, string calldata newUri) external onlyOwner {
        _uris[id] = newUri;
        emit URI(newUri, id);
    }

    function balanceOf(address account, uint256 id) external view returns (uint256) {
        return _balances[id][account];
    }

    function balanceOfBatch(address[] calldata accounts, uint256[] calldata ids)
        external
        view
        returns (uint256[] memory balances)
    {
        require(accounts.length == ids.length, "DemoMultiToken: length mismatch");
        balances = new uint256[](accounts.length);
        for (uint256 i = 0; i < accounts.length; i++) balances[i] = _balances[ids[i]][accounts[i]];
    }

    function isApprovedForAll(address account, address operator) public view returns (bool) {
        return _operators[account][operator];
    }

    function setApprovalForAll(address operator, bool approved) external {
        _operators[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata) external {
        _authorizeTransfer(from, to);
        _move(from, to, id, value);
        emit TransferSingle(msg.sender, from, to, id, value);
    }

    function safeBatchTransferFrom(
        address from,
        address to,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata
    ) external {
        require(ids.length == values.length, "DemoMultiToken: length mismatch");
        _authorizeTransfer(from, to);
        for (uint256 i = 0; i < ids.length; i++) _move(from, to, ids[i], values[i]);
        emit TransferBatch(msg.sender, from, to, ids, values);
    }

    function mint(address to, uint256 id, uint256 value, bytes calldata) external onlyOwner {
        require(to != address(0), "DemoMultiToken: mint to zero address");
        _balances[id][to] += value;
        emit TransferSingle(msg.sender, address(0), to, id, value);
    }

    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata values, bytes calldata)
        external
        onlyOwner
    {
        require(to != address(0), "DemoMultiToken: mint to zero address");
        require(ids.length == values.length, "DemoMultiToken: length mismatch");
        for (uint256 i = 0; i < ids.length; i++) _balances[ids[i]][to] += values[i];
        emit TransferBatch(msg.sender, address(0), to, ids, values);
    }

    function burn(address from, uint256 id, uint256 value) external {
        _authorize(from);
        _take(from, id, value);
        emit TransferSingle(msg.sender, from, address(0), id, value);
    }

    function burnBatch(address from, uint256[] calldata ids, uint256[] calldata values) external {
        require(ids.length == values.length, "DemoMultiToken: length mismatch");
        _authorize(from);
        for (uint256 i = 0; i < ids.length; i++) _take(from, ids[i], values[i]);
        emit TransferBatch(msg.sender, from, address(0), ids, values);
    }

    function _authorizeTransfer(address from, address to) private view {
        require(to != address(0), "DemoMultiToken: transfer to zero address");
        _authorize(from);
    }

    function _authorize(address from) private view {
        require(from == msg.sender || isApprovedForAll(from, msg.sender), "DemoMultiToken: not authorized");
    }

    function _move(address from, address to, uint256 id, uint256 value) private {
        _take(from, id, value);
        _balances[id][to] += value;
    }

    function _take(address from, uint256 id, uint256 value) private {
        require(_balances[id][from] >= value, "DemoMultiToken: insufficient balance");
        _balances[id][from] -= value;
    }
}
`;
