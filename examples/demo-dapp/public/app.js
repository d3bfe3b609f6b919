// The demo dapp itself: plain browser code doing what real dapps do with a wallet. The SDK snippet in the
// page observes it; the dapp only names two things itself, as a product team does: a custom event
// (`Polyflow.track`, "Get a swap quote") and its own user id (`Polyflow.identify`, on connect). Everything
// the dapp gets back (results, hashes, receipts, errors) is written to the log and to `window.demoLog` for
// tests to read.
const config = JSON.parse(document.getElementById('demo-config').textContent);
const query = new URLSearchParams(location.search);
const TEST_WALLET_RDNS = 'dev.polyflow.testwallet';
const SET_VALUE = '0x55241077'; // setValue(uint256)
const GET_VALUE = '0x3fa4f245'; // value()
const ONE_HUNDREDTH_ETH = '0x2386f26fc10000';
// A wallet refuses to send a call that fails gas estimation; the demo gives its reverting call a gas
// limit of its own, so that it is mined and reverts on chain (receipt status 0), as happens when the
// chain state changes between estimation and inclusion.
const REVERTING_CALL_GAS = '0x30d40';

const $ = (selector) => document.querySelector(selector);
const hex32 = (n) => BigInt(n).toString(16).padStart(64, '0');
const utf8Hex = (text) =>
  `0x${[...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;

// ---- finding the wallet: EIP-6963 first (like wagmi and friends), `window.ethereum` otherwise ----
// `?via=window` makes the dapp use `window.ethereum` only, as older dapps do.
const via = query.get('via') === 'window' ? 'window' : 'eip6963';
let announced = null;
window.addEventListener('eip6963:announceProvider', (event) => {
  if (event.detail?.info?.rdns === TEST_WALLET_RDNS) {
    announced = event.detail;
    showStatus();
  }
});
window.dispatchEvent(new Event('eip6963:requestProvider'));

/** Looked up at every call, so a provider installed or wrapped later is the one used. */
function wallet() {
  const provider = via === 'eip6963' && announced ? announced.provider : window.ethereum;
  if (!provider) throw new Error('No wallet found: the test wallet has not been installed yet.');
  return provider;
}

// ---- the log ----
window.demoLog = [];
function record(action, outcome, detail, data = {}) {
  const entry = {
    seq: window.demoLog.length + 1,
    at: new Date().toISOString(),
    action,
    outcome,
    detail,
    data,
  };
  window.demoLog.push(entry);
  const item = document.createElement('li');
  item.className = `log-entry ${outcome}`;
  item.dataset.action = action;
  item.dataset.outcome = outcome;
  const time = document.createElement('time');
  time.textContent = entry.at.slice(11, 19);
  const label = document.createElement('span');
  label.className = 'log-action';
  label.textContent = action;
  const text = document.createElement('span');
  text.className = 'log-detail';
  text.textContent = detail;
  item.append(time, label, text);
  $('#log').prepend(item);
}

function describeError(error) {
  if (error === undefined) return 'undefined (the wallet call neither resolved with a value nor rejected)';
  const code = error?.code !== undefined ? `code ${error.code}: ` : '';
  return `${code}${error?.message ?? String(error)}`;
}

async function run(action, button, task) {
  button.disabled = true;
  try {
    await task();
  } catch (error) {
    record(action, 'error', describeError(error), {
      code: error?.code,
      message: error?.message,
      // The wallet keeps the rejection it made: proof that nothing between them swapped the error.
      sameErrorAsWallet: error != null && error === window.testWallet?.lastRejection,
    });
  } finally {
    button.disabled = false;
  }
}

async function connectedAccount() {
  const accounts = await wallet().request({ method: 'eth_accounts' });
  if (!accounts?.[0]) throw new Error('Connect the wallet first.');
  return accounts[0];
}

async function waitForReceipt(hash) {
  for (let attempt = 0; attempt < 120; attempt++) {
    const receipt = await wallet().request({ method: 'eth_getTransactionReceipt', params: [hash] });
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`No receipt for ${hash} after 30 s`);
}

async function sendAndFollow(action, tx) {
  const hash = await wallet().request({ method: 'eth_sendTransaction', params: [tx] });
  record(action, 'info', `submitted ${hash}`, { stage: 'submitted', hash });
  const receipt = await waitForReceipt(hash);
  const mined = {
    stage: 'mined',
    hash,
    status: receipt.status,
    gasUsed: BigInt(receipt.gasUsed).toString(),
    blockNumber: BigInt(receipt.blockNumber).toString(),
  };
  if (receipt.status === '0x1') {
    record(action, 'ok', `confirmed in block ${mined.blockNumber}, gas used ${mined.gasUsed}`, mined);
    return;
  }
  let reason = '';
  try {
    // Replaying the call tells why it reverted.
    await wallet().request({
      method: 'eth_call',
      params: [{ from: tx.from, to: tx.to, data: tx.data }, 'latest'],
    });
  } catch (error) {
    reason = `: ${error.message}`;
  }
  record(action, 'error', `reverted on chain in block ${mined.blockNumber} (status 0)${reason}`, mined);
}

// `window.Polyflow` is there when the snippet is (not with `?sdk=off`); its calls never throw.
const polyflow = () => window.Polyflow ?? {};

const actions = {
  async connect() {
    const accounts = await wallet().request({ method: 'eth_requestAccounts' });
    record('connect', 'ok', `connected ${accounts?.[0]}`, { accounts });
    // The dapp's own account id for this wallet (a real dapp would use its back end's).
    const appUserId = `demo-user-${String(accounts?.[0]).slice(2, 10).toLowerCase()}`;
    polyflow().identify?.(appUserId, { plan: 'demo' });
  },
  async 'swap-quote'() {
    // A read-only quote (a made-up price moved by the stored value); the dapp names the event itself.
    const result = await wallet().request({
      method: 'eth_call',
      params: [{ to: config.contractAddress, data: GET_VALUE }, 'latest'],
    });
    const quote = { pair: 'ETH/USDC', amountIn: 1, amountOut: 3000 + Number(BigInt(result) % 1000n) };
    polyflow().track?.('swap_quote_shown', quote);
    record('swap-quote', 'ok', `1 ETH → ${quote.amountOut} USDC (tracked swap_quote_shown)`, quote);
  },
  async 'send-eth'() {
    const from = await connectedAccount();
    await sendAndFollow('send-eth', { from, to: config.accounts[1], value: ONE_HUNDREDTH_ETH });
  },
  async 'contract-ok'() {
    const from = await connectedAccount();
    const value = 1 + Math.floor(Math.random() * 999);
    await sendAndFollow('contract-ok', {
      from,
      to: config.contractAddress,
      data: `${SET_VALUE}${hex32(value)}`,
    });
  },
  async 'contract-revert'() {
    const from = await connectedAccount();
    await sendAndFollow('contract-revert', {
      from,
      to: config.contractAddress,
      data: `${SET_VALUE}${hex32(0)}`,
      gas: REVERTING_CALL_GAS,
    });
  },
  async 'read-value'() {
    const result = await wallet().request({
      method: 'eth_call',
      params: [{ to: config.contractAddress, data: GET_VALUE }, 'latest'],
    });
    record('read-value', 'ok', `DemoStore.value() = ${BigInt(result)}`, { value: BigInt(result).toString() });
  },
  async 'sign-message'() {
    const from = await connectedAccount();
    const message = `Hello from the Polyflow demo dapp (${new Date().toISOString()})`;
    const signature = await wallet().request({ method: 'personal_sign', params: [utf8Hex(message), from] });
    record('sign-message', 'ok', `signature ${signature}`, { signature });
  },
  async 'sign-typed-data'() {
    const from = await connectedAccount();
    const chainId = Number.parseInt(await wallet().request({ method: 'eth_chainId' }), 16);
    const typedData = {
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        Greeting: [
          { name: 'from', type: 'address' },
          { name: 'text', type: 'string' },
        ],
      },
      primaryType: 'Greeting',
      domain: { name: 'Polyflow Demo', version: '1', chainId, verifyingContract: config.contractAddress },
      message: { from, text: 'gm from the demo dapp' },
    };
    const signature = await wallet().request({
      method: 'eth_signTypedData_v4',
      params: [from, JSON.stringify(typedData)],
    });
    record('sign-typed-data', 'ok', `signature ${signature}`, { signature });
  },
  'throw-error'() {
    record('throw-error', 'info', 'throwing an uncaught Error now');
    throw new Error('Demo dapp: something broke (thrown on purpose)');
  },
  'unhandled-rejection'() {
    record('unhandled-rejection', 'info', 'leaving a rejected promise unhandled');
    Promise.reject(new Error('Demo dapp: a promise nobody handled'));
  },
};

for (const button of document.querySelectorAll('button[data-action]')) {
  const action = button.dataset.action;
  const task = actions[action];
  if (action === 'throw-error' || action === 'unhandled-rejection') {
    // Not caught on purpose: these must reach the page's `error` / `unhandledrejection` events.
    button.addEventListener('click', () => task());
  } else {
    button.addEventListener('click', () => run(action, button, task));
  }
}

// ---- status ----
async function showStatus() {
  const provider = via === 'eip6963' && announced ? announced.provider : window.ethereum;
  $('#status-wallet').textContent = provider
    ? via === 'eip6963' && announced
      ? `${announced.info.name} (EIP-6963)`
      : 'window.ethereum'
    : 'no wallet yet';
  $('#status-contract').textContent = config.contractAddress;
  if (!provider) return;
  try {
    const [accounts, chainId] = await Promise.all([
      provider.request({ method: 'eth_accounts' }),
      provider.request({ method: 'eth_chainId' }),
    ]);
    $('#status-account').textContent = accounts?.[0] ?? 'not connected';
    $('#status-chain').textContent = String(Number.parseInt(chainId, 16));
  } catch {
    // status is cosmetic
  }
}

function watchWallet() {
  const provider = via === 'eip6963' && announced ? announced.provider : window.ethereum;
  if (!provider) return false;
  provider.on?.('accountsChanged', (accounts) => {
    record(
      'wallet',
      'info',
      accounts.length ? `accountsChanged → ${accounts[0]}` : 'accountsChanged → disconnected',
      {
        accounts,
      },
    );
    showStatus();
  });
  provider.on?.('chainChanged', (chainId) => {
    record('wallet', 'info', `chainChanged → ${Number.parseInt(chainId, 16)}`, { chainId });
    showStatus();
  });
  showStatus();
  return true;
}

function showSdkStatus() {
  const element = $('#status-sdk');
  const script = document.querySelector('script[data-api-key]');
  if (config.sdk === 'off') {
    element.textContent = 'snippet left out (?sdk=off)';
    return;
  }
  if (!script) {
    $('#no-key').hidden = false;
    $('#no-key-domain').textContent = location.hostname;
    element.textContent = 'no API key: snippet not added';
    return;
  }
  const key = script.dataset.apiKey;
  const label = `${script.src} (key …${key.slice(-4)})`;
  const settle = (loaded) => {
    element.textContent = loaded ? `loaded from ${label}` : `could not load ${label}`;
    element.className = loaded ? 'ok' : 'error';
  };
  const entry = performance.getEntriesByName(script.src)[0];
  if (entry) settle(!entry.responseStatus || entry.responseStatus < 400);
  else {
    element.textContent = `loading ${label}…`;
    script.addEventListener('load', () => settle(true));
    script.addEventListener('error', () => settle(false));
  }
}

// ---- two client-side routes, so page views on route changes can be seen ----
function showRoute() {
  const about = location.pathname === '/about';
  $('#page-actions').hidden = about;
  $('#page-about').hidden = !about;
  for (const link of document.querySelectorAll('[data-route]')) {
    link.classList.toggle('active', link.dataset.route === location.pathname);
  }
}
for (const link of document.querySelectorAll('[data-route]')) {
  link.addEventListener('click', (event) => {
    event.preventDefault();
    history.pushState({}, '', `${link.dataset.route}${location.search}`);
    showRoute();
  });
}
window.addEventListener('popstate', showRoute);

showRoute();
showSdkStatus();
if (!watchWallet()) {
  // The wallet arrives later (`?wallet=late`): wait for its EIP-6963 announcement.
  window.addEventListener('eip6963:announceProvider', () => watchWallet(), { once: true });
}
