// A dapp on ethers v6, written as most are: a BrowserProvider over window.ethereum, a signer, a Contract.
import { BrowserProvider, Contract, type Eip1193Provider, type TransactionReceipt } from 'ethers';
import { config, demoStoreAbi, expose, OWN_GAS_LIMIT, TRANSFER_WEI } from './shared.ts';

const ethereum = (window as unknown as { ethereum: Eip1193Provider }).ethereum;
const provider = new BrowserProvider(ethereum);
const receiptOf = (receipt: TransactionReceipt | null) =>
  receipt && { hash: receipt.hash, status: receipt.status, gasUsed: receipt.gasUsed };
const store = async () => new Contract(config.contractAddress, demoStoreAbi, await provider.getSigner());

expose({
  connect: () => provider.send('eth_requestAccounts', []),
  async transfer() {
    const signer = await provider.getSigner();
    const tx = await signer.sendTransaction({ to: config.accounts[1], value: TRANSFER_WEI });
    return receiptOf(await tx.wait());
  },
  async contractCall() {
    const tx = await (await store()).getFunction('setValue')(42n);
    return receiptOf(await tx.wait());
  },
  // ethers estimates gas first: the call reverts there and the wallet is never asked to send it.
  revertAtEstimation: async () => (await store()).getFunction('setValue')(0n),
  async revertOnChain() {
    const tx = await (await store()).getFunction('setValue')(0n, { gasLimit: OWN_GAS_LIMIT });
    try {
      return await tx.wait();
    } catch (error) {
      const { code, receipt } = error as { code: string; receipt: TransactionReceipt };
      return { code, ...receiptOf(receipt) };
    }
  },
  rejectedTransfer: async () =>
    (await provider.getSigner()).sendTransaction({ to: config.accounts[1], value: TRANSFER_WEI }),
  signMessage: async () => (await provider.getSigner()).signMessage('Polyflow e2e: sign in'),
  switchChain: (chainId: number) =>
    provider.send('wallet_switchEthereumChain', [{ chainId: `0x${chainId.toString(16)}` }]),
  // ethers has no EIP-5792 API: dapps send the request themselves and poll its status.
  async batch() {
    const signer = await provider.getSigner();
    const setValue = (await store()).interface.encodeFunctionData('setValue', [7n]);
    const { id } = await provider.send('wallet_sendCalls', [
      {
        version: '2.0.0',
        from: await signer.getAddress(),
        chainId: `0x${config.chainId.toString(16)}`,
        atomicRequired: false,
        calls: [
          { to: config.accounts[1], value: `0x${TRANSFER_WEI.toString(16)}` },
          { to: config.contractAddress, data: setValue },
        ],
      },
    ]);
    for (;;) {
      const status = await provider.send('wallet_getCallsStatus', [id]);
      if (status.status >= 200) {
        const receipts = status.receipts as { transactionHash: string; status: string; gasUsed: string }[];
        return {
          status: status.status,
          receipts: receipts.map(({ transactionHash, status, gasUsed }) => ({
            transactionHash,
            status,
            gasUsed,
          })),
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  },
});
