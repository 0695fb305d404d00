import { mnemonicToAccount, type HDAccount } from 'viem/accounts';

/** anvil's default mnemonic; its first accounts are pre-funded with 10 000 ETH each. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

/** How many accounts anvil funds by default (`--accounts`). */
export const DEV_ACCOUNT_COUNT = 10;

// Deriving from a mnemonic runs PBKDF2 every time (~40 ms), so each account is derived once.
const derived = new Map<number, HDAccount>();

/** The local (private-key) account anvil derives at `m/44'/60'/0'/0/<index>`. */
export function devAccount(index: number): HDAccount {
  let account = derived.get(index);
  if (!account) {
    account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });
    derived.set(index, account);
  }
  return account;
}

/** The first `count` dev accounts, in anvil's order. */
export function devAccounts(count: number = DEV_ACCOUNT_COUNT): HDAccount[] {
  return Array.from({ length: count }, (_, index) => devAccount(index));
}
