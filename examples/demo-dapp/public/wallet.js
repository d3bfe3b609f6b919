// Polyflow Test Wallet: an in-page EIP-1193 provider backed by the demo's local anvil chain.
// It stands in for a browser extension such as MetaMask: installed as `window.ethereum` and announced
// through EIP-6963, it asks the person on the page to approve or reject each request that needs consent.
// anvil's dev accounts are unlocked, so approved requests are signed by the node itself via `/rpc`.
// A classic script (not a module) so that, loaded before the SDK snippet, the wallet exists first;
// with `?wallet=late` it installs only after the page has loaded, as a slow extension would.
(() => {
  const config = JSON.parse(document.getElementById('demo-config').textContent);
  const query = new URLSearchParams(location.search);
  const INFO = Object.freeze({
    uuid: typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`,
    name: 'Polyflow Test Wallet',
    icon: `data:image/svg+xml,${encodeURIComponent(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4338ca"/><path d="M9 11h14v11H9z" fill="none" stroke="#fff" stroke-width="2.5"/><circle cx="19" cy="16.5" r="1.8" fill="#fff"/></svg>',
    )}`,
    rdns: 'dev.polyflow.testwallet',
  });
  const NEEDS_APPROVAL = new Set([
    'eth_requestAccounts',
    'eth_sendTransaction',
    'wallet_sendTransaction',
    'wallet_sendCalls',
    'personal_sign',
    'eth_signTypedData_v4',
    'wallet_switchEthereumChain',
  ]);
  const AUTO_APPROVE_KEY = 'demo.testWallet.autoApprove';

  const listeners = new Map();
  const pending = [];
  /** EIP-5792 batches this wallet sent: id → the hashes of its calls. */
  const batches = new Map();
  const state = {
    connected: [],
    chainId: config.chainId,
    accountIndex: 0,
    autoApprove: query.get('autoApprove') === '1' || localStorage.getItem(AUTO_APPROVE_KEY) === '1',
    lastRejection: null,
  };
  let rpcId = 0;
  let installed = false;

  function providerError(code, message, data) {
    const error = new Error(message);
    error.code = code;
    if (data !== undefined) error.data = data;
    return error;
  }

  function emit(event, ...args) {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(...args);
      } catch (error) {
        setTimeout(() => {
          throw error;
        });
      }
    }
  }

  async function rpc(method, params = []) {
    const response = await fetch('/rpc', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
    });
    const body = await response.json();
    if (body.error) throw providerError(body.error.code ?? -32603, body.error.message, body.error.data);
    return body.result;
  }

  function currentAccount() {
    return config.accounts[state.accountIndex];
  }

  function askApproval(method, params) {
    if (state.autoApprove) return Promise.resolve();
    return new Promise((resolve, reject) => {
      pending.push({ method, params, resolve, reject });
      render();
    });
  }

  function settleFirst(approved) {
    const request = pending.shift();
    if (!request) return;
    if (approved) request.resolve();
    else {
      // EIP-1193: 4001 is what every wallet answers when the person says no.
      const rejection = providerError(4001, 'User rejected the request.');
      state.lastRejection = rejection;
      request.reject(rejection);
    }
    render();
  }

  function setConnected(accounts) {
    state.connected = accounts;
    emit('accountsChanged', [...accounts]);
    render();
  }

  async function switchChain(chainIdHex) {
    const chainId = Number.parseInt(chainIdHex, 16);
    if (!Number.isSafeInteger(chainId) || chainId <= 0) throw providerError(-32602, 'Invalid chain id.');
    // One local chain plays every network: anvil can change its own chain id.
    await rpc('anvil_setChainId', [chainId]);
    state.chainId = chainId;
    emit('chainChanged', `0x${chainId.toString(16)}`);
    render();
  }

  // Like MetaMask, a transaction without a gas limit is estimated first; one that would revert is refused
  // with the node's error (code 3, "execution reverted: …") before the person is asked anything.
  async function sendTransaction(method, tx) {
    const full = { from: state.connected[0], ...tx };
    if (full.gas === undefined) await rpc('eth_estimateGas', [full]);
    await askApproval(method, [tx]);
    return rpc('eth_sendTransaction', [full]);
  }

  // EIP-5792 without atomicity, as an externally owned account does it: one approval for the whole batch,
  // then each call is sent as its own transaction.
  async function sendCalls(request) {
    if (request?.atomicRequired) throw providerError(5760, 'This wallet cannot send calls atomically.');
    const calls = request?.calls ?? [];
    await askApproval('wallet_sendCalls', [request]);
    const hashes = [];
    for (const call of calls) {
      hashes.push(await rpc('eth_sendTransaction', [{ from: state.connected[0], ...call }]));
    }
    const id = `0x${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
    batches.set(id, hashes);
    return { id };
  }

  async function callsStatus(id) {
    const hashes = batches.get(id);
    if (!hashes) throw providerError(5730, 'Unknown bundle id.');
    const receipts = await Promise.all(hashes.map((hash) => rpc('eth_getTransactionReceipt', [hash])));
    const chainId = `0x${state.chainId.toString(16)}`;
    if (receipts.some((receipt) => !receipt))
      return { version: '2.0.0', id, chainId, status: 100, atomic: false };
    const reverted = receipts.filter((receipt) => receipt.status !== '0x1').length;
    return {
      version: '2.0.0',
      id,
      chainId,
      // 200 confirmed, 500 every call reverted, 600 some did.
      status: reverted === 0 ? 200 : reverted === receipts.length ? 500 : 600,
      atomic: false,
      receipts: receipts.map(({ logs, status, blockHash, blockNumber, gasUsed, transactionHash }) => ({
        logs,
        status,
        blockHash,
        blockNumber,
        gasUsed,
        transactionHash,
      })),
    };
  }

  async function handle(method, params) {
    switch (method) {
      case 'eth_accounts':
        return [...state.connected];
      case 'eth_chainId':
        return `0x${state.chainId.toString(16)}`;
      case 'net_version':
        return String(state.chainId);
      case 'eth_requestAccounts':
        if (state.connected.length > 0) return [...state.connected];
        await askApproval(method, params);
        setConnected([currentAccount()]);
        return [...state.connected];
      case 'wallet_switchEthereumChain':
        await askApproval(method, params);
        await switchChain(params?.[0]?.chainId);
        return null;
      case 'wallet_getCapabilities':
        return { [`0x${state.chainId.toString(16)}`]: { atomic: { status: 'unsupported' } } };
      case 'wallet_getCallsStatus':
        return callsStatus(params?.[0]);
      case 'eth_sendTransaction':
      case 'wallet_sendTransaction':
      case 'wallet_sendCalls':
      case 'personal_sign':
      case 'eth_signTypedData_v4': {
        if (state.connected.length === 0)
          throw providerError(4100, 'The requested account has not been authorized.');
        if (method === 'wallet_sendCalls') return sendCalls(params?.[0]);
        if (method !== 'personal_sign' && method !== 'eth_signTypedData_v4')
          return sendTransaction(method, params?.[0] ?? {});
        await askApproval(method, params);
        return rpc(method, params);
      }
      default:
        if (NEEDS_APPROVAL.has(method)) await askApproval(method, params);
        return rpc(method, params);
    }
  }

  const provider = {
    isPolyflowTestWallet: true,
    request(args) {
      if (!args || typeof args.method !== 'string') {
        return Promise.reject(providerError(-32600, 'Expected { method, params }.'));
      }
      return handle(args.method, args.params);
    },
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(listener);
      return provider;
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
      return provider;
    },
  };
  provider.addListener = provider.on;
  provider.off = provider.removeListener;

  // Controls for the page and for tests: approve/reject, account and chain switches.
  const testWallet = {
    info: INFO,
    provider,
    approve: () => settleFirst(true),
    reject: () => settleFirst(false),
    get pending() {
      return pending.map(({ method, params }) => ({ method, params }));
    },
    get lastRejection() {
      return state.lastRejection;
    },
    setAutoApprove(on) {
      state.autoApprove = Boolean(on);
      localStorage.setItem(AUTO_APPROVE_KEY, on ? '1' : '0');
      while (state.autoApprove && pending.length > 0) settleFirst(true);
      render();
    },
    disconnect: () => setConnected([]),
    switchAccount() {
      state.accountIndex = (state.accountIndex + 1) % config.accounts.length;
      if (state.connected.length > 0) setConnected([currentAccount()]);
      else render();
    },
    switchChain: () =>
      switchChain(
        `0x${(state.chainId === config.chainId ? config.chainId + 1 : config.chainId).toString(16)}`,
      ),
  };

  function announce() {
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info: INFO, provider }) }),
    );
  }

  function install() {
    installed = true;
    window.ethereum = provider;
    window.testWallet = testWallet;
    window.addEventListener('eip6963:requestProvider', announce);
    announce();
    render();
  }

  // ---- the wallet's own little window inside the page ----
  const short = (text) => (text && text.length > 14 ? `${text.slice(0, 6)}…${text.slice(-4)}` : text);
  function describe(method, params) {
    if (method === 'wallet_sendCalls') return `Send ${params?.[0]?.calls?.length ?? 0} calls in one batch`;
    if (method === 'eth_sendTransaction' || method === 'wallet_sendTransaction') {
      const tx = params?.[0] ?? {};
      const value = tx.value ? `${Number(BigInt(tx.value)) / 1e18} ETH` : '0 ETH';
      return `Send a transaction to ${short(tx.to ?? '(new contract)')}: ${value}${tx.data ? `, data ${short(tx.data)}` : ''}`;
    }
    if (method === 'personal_sign') return 'Sign a message';
    if (method === 'eth_signTypedData_v4') return 'Sign typed data (EIP-712)';
    if (method === 'eth_requestAccounts') return `Connect ${short(currentAccount())} to this site`;
    return method;
  }

  function render() {
    const panel = document.getElementById('wallet-panel');
    if (!panel) return;
    panel.dataset.installed = String(installed);
    panel.querySelector('[data-wallet="account"]').textContent = state.connected[0] ?? 'not connected';
    panel.querySelector('[data-wallet="chain"]').textContent = String(state.chainId);
    const autoApprove = panel.querySelector('[data-wallet="auto-approve"]');
    autoApprove.checked = state.autoApprove;
    const prompt = panel.querySelector('[data-wallet="prompt"]');
    const request = pending[0];
    prompt.hidden = !request;
    if (request) {
      prompt.querySelector('[data-wallet="prompt-text"]').textContent = describe(
        request.method,
        request.params,
      );
      prompt.querySelector('[data-wallet="prompt-method"]').textContent = request.method;
      prompt.querySelector('[data-wallet="prompt-count"]').textContent =
        pending.length > 1 ? `${pending.length - 1} more waiting` : '';
    }
  }

  function bindPanel() {
    const panel = document.getElementById('wallet-panel');
    if (!panel) return;
    const on = (name, handler) =>
      panel.querySelector(`[data-wallet="${name}"]`).addEventListener('click', handler);
    on('approve', () => testWallet.approve());
    on('reject', () => testWallet.reject());
    on('disconnect', () => testWallet.disconnect());
    on('switch-account', () => testWallet.switchAccount());
    on('switch-chain', () =>
      testWallet.switchChain().catch((error) => console.warn('switch chain failed', error)),
    );
    panel
      .querySelector('[data-wallet="auto-approve"]')
      .addEventListener('change', (event) => testWallet.setAutoApprove(event.target.checked));
    render();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', bindPanel);
  else bindPanel();

  if (query.get('wallet') === 'late') {
    window.addEventListener('load', () => setTimeout(install, 300));
  } else {
    install();
  }
})();
