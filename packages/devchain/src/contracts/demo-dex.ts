/**
 * `DemoFactory` and `DemoPair`: a minimal Uniswap V2 clone whose events (`PairCreated`, `Sync`,
 * `Swap`, `Mint`), views (`token0`, `token1`, `factory`, `getReserves`) and balance-based
 * `mint` / `swap` (0.3% fee on the input, `Sync` before `Mint` / `Swap`) match Uniswap V2's,
 * so an indexer of real Uniswap V2 pools reads it unchanged. Left out: LP shares (liquidity is
 * never withdrawn, and the pair emits no `Transfer`), `burn`, flash swaps (`swap` has no
 * `data`), price accumulators and protocol fees.
 */
export const DEMO_DEX_SOURCE = /* solidity */ `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IDexToken {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
}

contract DemoPair {
    address public immutable factory;
    address public immutable token0;
    address public immutable token1;
    uint112 private reserve0;
    uint112 private reserve1;
    uint32 private blockTimestampLast;
    uint256 private unlocked = 1;

    event Mint(address indexed sender, uint256 amount0, uint256 amount1);
    event Swap(
        address indexed sender,
        uint256 amount0In,
        uint256 amount1In,
        uint256 amount0Out,
        uint256 amount1Out,
        address indexed to
    );
    event Sync(uint112 reserve0, uint112 reserve1);

    // The optimistic transfer in swap calls out before reserves are updated.
    modifier lock() {
        require(unlocked == 1, "DemoPair: locked");
        unlocked = 2;
        _;
        unlocked = 1;
    }

    constructor(address token0_, address token1_) {
        factory = msg.sender;
        token0 = token0_;
        token1 = token1_;
    }

    function getReserves() public view returns (uint112, uint112, uint32) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    /// Adds the tokens sent to the pair since the last update to the reserves. \`to\` keeps
    /// Uniswap V2's signature; there are no LP shares to give it.
    function mint(address /* to */) external lock {
        uint256 balance0 = IDexToken(token0).balanceOf(address(this));
        uint256 balance1 = IDexToken(token1).balanceOf(address(this));
        uint256 amount0 = balance0 - reserve0;
        uint256 amount1 = balance1 - reserve1;
        require(amount0 > 0 && amount1 > 0, "DemoPair: insufficient liquidity minted");
        _update(balance0, balance1);
        emit Mint(msg.sender, amount0, amount1);
    }

    /// Sends the outputs first, then requires the tokens sent in beforehand to keep the
    /// product of the balances, less 0.3% of each input, at least the old reserves' product.
    function swap(uint256 amount0Out, uint256 amount1Out, address to) external lock {
        require(amount0Out > 0 || amount1Out > 0, "DemoPair: insufficient output amount");
        (uint112 _reserve0, uint112 _reserve1) = (reserve0, reserve1);
        require(amount0Out < _reserve0 && amount1Out < _reserve1, "DemoPair: insufficient liquidity");
        require(to != token0 && to != token1, "DemoPair: invalid to");
        if (amount0Out > 0) _safeTransfer(token0, to, amount0Out);
        if (amount1Out > 0) _safeTransfer(token1, to, amount1Out);
        uint256 balance0 = IDexToken(token0).balanceOf(address(this));
        uint256 balance1 = IDexToken(token1).balanceOf(address(this));
        uint256 amount0In = balance0 > _reserve0 - amount0Out ? balance0 - (_reserve0 - amount0Out) : 0;
        uint256 amount1In = balance1 > _reserve1 - amount1Out ? balance1 - (_reserve1 - amount1Out) : 0;
        require(amount0In > 0 || amount1In > 0, "DemoPair: insufficient input amount");
        uint256 balance0Adjusted = balance0 * 1000 - amount0In * 3;
        uint256 balance1Adjusted = balance1 * 1000 - amount1In * 3;
        require(
            balance0Adjusted * balance1Adjusted >= uint256(_reserve0) * _reserve1 * 1000 ** 2,
            "DemoPair: K"
        );
        _update(balance0, balance1);
        emit Swap(msg.sender, amount0In, amount1In, amount0Out, amount1Out, to);
    }

    function _update(uint256 balance0, uint256 balance1) private {
        require(balance0 <= type(uint112).max && balance1 <= type(uint112).max, "DemoPair: overflow");
        reserve0 = uint112(balance0);
        reserve1 = uint112(balance1);
        blockTimestampLast = uint32(block.timestamp);
        emit Sync(reserve0, reserve1);
    }

    function _safeTransfer(address token, address to, uint256 amount) private {
        require(IDexToken(token).transfer(to, amount), "DemoPair: transfer failed");
    }
}

contract DemoFactory {
    mapping(address => mapping(address => address)) public getPair;
    address[] public allPairs;

    event PairCreated(address indexed token0, address indexed token1, address pair, uint256);

    function allPairsLength() external view returns (uint256) {
        return allPairs.length;
    }

    function createPair(address tokenA, address tokenB) external returns (address pair) {
        require(tokenA != tokenB, "DemoFactory: identical addresses");
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0), "DemoFactory: zero address");
        require(getPair[token0][token1] == address(0), "DemoFactory: pair exists");
        pair = address(new DemoPair(token0, token1));
        getPair[token0][token1] = pair;
        getPair[token1][token0] = pair;
        allPairs.push(pair);
        emit PairCreated(token0, token1, pair, allPairs.length);
    }
}
`;
