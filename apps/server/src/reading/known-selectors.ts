/**
 * Function signatures of selectors common enough to name without a contract's ABI (ERC-20/721, WETH,
 * Uniswap v2/v3 routers, staking). Checked with viem's toFunctionSelector. Anything else shows its selector.
 */
const KNOWN_SELECTORS: ReadonlyMap<string, string> = new Map([
  ['0xa9059cbb', 'transfer(address,uint256)'],
  ['0x095ea7b3', 'approve(address,uint256)'],
  ['0x23b872dd', 'transferFrom(address,address,uint256)'],
  ['0xd505accf', 'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)'],
  ['0x40c10f19', 'mint(address,uint256)'],
  ['0xa0712d68', 'mint(uint256)'],
  ['0x42966c68', 'burn(uint256)'],
  ['0x42842e0e', 'safeTransferFrom(address,address,uint256)'],
  ['0xb88d4fde', 'safeTransferFrom(address,address,uint256,bytes)'],
  ['0xa22cb465', 'setApprovalForAll(address,bool)'],
  ['0xd0e30db0', 'deposit()'],
  ['0xb6b55f25', 'deposit(uint256)'],
  ['0x2e1a7d4d', 'withdraw(uint256)'],
  ['0x38ed1739', 'swapExactTokensForTokens(uint256,uint256,address[],address,uint256)'],
  ['0x7ff36ab5', 'swapExactETHForTokens(uint256,address[],address,uint256)'],
  ['0x18cbafe5', 'swapExactTokensForETH(uint256,uint256,address[],address,uint256)'],
  ['0x8803dbee', 'swapTokensForExactTokens(uint256,uint256,address[],address,uint256)'],
  ['0xfb3bdb41', 'swapETHForExactTokens(uint256,address[],address,uint256)'],
  ['0xe8e33700', 'addLiquidity(address,address,uint256,uint256,uint256,uint256,address,uint256)'],
  ['0xf305d719', 'addLiquidityETH(address,uint256,uint256,uint256,address,uint256)'],
  ['0xbaa2abde', 'removeLiquidity(address,address,uint256,uint256,uint256,address,uint256)'],
  ['0x414bf389', 'exactInputSingle((address,address,uint24,address,uint256,uint256,uint256,uint160))'],
  ['0xc04b8d59', 'exactInput((bytes,address,uint256,uint256,uint256))'],
  ['0x3593564c', 'execute(bytes,bytes[],uint256)'],
  ['0xac9650d8', 'multicall(bytes[])'],
  ['0x5ae401dc', 'multicall(uint256,bytes[])'],
  ['0xa694fc3a', 'stake(uint256)'],
  ['0x3d18b912', 'getReward()'],
  ['0x4e71d92d', 'claim()'],
  // The demo dapp's DemoStore (examples/demo-dapp/contracts/DemoStore.sol).
  ['0x55241077', 'setValue(uint256)'],
]);

export function functionNameOf(selector: string | null | undefined): string | null {
  return selector ? (KNOWN_SELECTORS.get(selector.toLowerCase()) ?? null) : null;
}
