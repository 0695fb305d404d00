/**
 * `DemoNFT`: a minimal ERC-721 (ids from 1, owner-only `mint(to)`, `burn(tokenId)` by its holder
 * or someone it approved). `totalSupply` counts the tokens in existence, `minted` every id ever
 * given. `safeTransferFrom` skips the receiver hook; events and ERC-165 answers are the standard ones.
 */
export const DEMO_NFT_SOURCE = /* solidity */ `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract DemoNFT {
    string public name;
    string public symbol;
    address public immutable owner;
    uint256 public totalSupply;
    uint256 public minted;
    mapping(uint256 => address) private _owners;
    mapping(address => uint256) private _balances;
    mapping(uint256 => address) private _approvals;
    mapping(address => mapping(address => bool)) private _operators;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
        owner = msg.sender;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x80ac58cd || interfaceId == 0x01ffc9a7;
    }

    function balanceOf(address account) external view returns (uint256) {
        require(account != address(0), "DemoNFT: zero address");
        return _balances[account];
    }

    function ownerOf(uint256 tokenId) public view returns (address holder) {
        holder = _owners[tokenId];
        require(holder != address(0), "DemoNFT: nonexistent token");
    }

    function getApproved(uint256 tokenId) external view returns (address) {
        ownerOf(tokenId);
        return _approvals[tokenId];
    }

    function isApprovedForAll(address holder, address operator) public view returns (bool) {
        return _operators[holder][operator];
    }

    function approve(address to, uint256 tokenId) external {
        address holder = ownerOf(tokenId);
        require(msg.sender == holder || isApprovedForAll(holder, msg.sender), "DemoNFT: not authorized");
        _approvals[tokenId] = to;
        emit Approval(holder, to, tokenId);
    }

    function setApprovalForAll(address operator, bool approved) external {
        _operators[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        address holder = ownerOf(tokenId);
        require(holder == from, "DemoNFT: wrong from");
        require(to != address(0), "DemoNFT: transfer to zero address");
        require(
            msg.sender == holder || _approvals[tokenId] == msg.sender || isApprovedForAll(holder, msg.sender),
            "DemoNFT: not authorized"
        );
        delete _approvals[tokenId];
        _balances[from] -= 1;
        _balances[to] += 1;
        _owners[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        transferFrom(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId, bytes calldata) external {
        transferFrom(from, to, tokenId);
    }

    function mint(address to) external returns (uint256 tokenId) {
        require(msg.sender == owner, "DemoNFT: not owner");
        require(to != address(0), "DemoNFT: mint to zero address");
        tokenId = ++minted;
        totalSupply += 1;
        _balances[to] += 1;
        _owners[tokenId] = to;
        emit Transfer(address(0), to, tokenId);
    }

    function burn(uint256 tokenId) external {
        address holder = ownerOf(tokenId);
        require(
            msg.sender == holder || _approvals[tokenId] == msg.sender || isApprovedForAll(holder, msg.sender),
            "DemoNFT: not authorized"
        );
        delete _approvals[tokenId];
        delete _owners[tokenId];
        _balances[holder] -= 1;
        totalSupply -= 1;
        emit Transfer(holder, address(0), tokenId);
    }
}
`;
