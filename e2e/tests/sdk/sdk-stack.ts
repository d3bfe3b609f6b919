import { type DemoDapp, startDemoDapp } from '../../../examples/demo-dapp/src/demo-server.mjs';
import {
  type Account,
  createProject as createSharedProject,
  createVerifiedAccount,
} from '../../support/api.ts';
import { startChain, type TestChain } from '../../support/chain.ts';
import {
  createProject,
  type OwnedProject,
  type PolyflowInstance,
  removeInstanceData,
  startPolyflow,
} from './polyflow-instance.ts';

/** Everything an SDK journey runs against: a local chain, a Polyflow server of its own, the demo dapp. */
export interface SdkStack {
  chain: TestChain;
  polyflow: PolyflowInstance;
  project: OwnedProject;
  demo: DemoDapp;
}

/** Stops whatever parts were started, in reverse order, and removes the server's data. */
export async function stopSdkStack({ chain, polyflow, demo }: Partial<SdkStack>): Promise<void> {
  await demo?.close();
  await polyflow?.stop();
  await chain?.stop();
  if (polyflow) removeInstanceData(polyflow);
}

/**
 * Starts the chain and the server side by side (each waits on its own process), then the project and the
 * dapp; a failed start stops the parts already running. The project has an API key and the given
 * whitelisted domains; the dapp loads the SDK from the server with it.
 */
export async function startSdkStack(domains: string[] = ['localhost']): Promise<SdkStack> {
  const started: Partial<SdkStack> = {};
  try {
    const [chain, polyflow] = await Promise.allSettled([
      startChain().then((value) => (started.chain = value)),
      startPolyflow().then((value) => (started.polyflow = value)),
    ]);
    for (const result of [chain, polyflow]) if (result.status === 'rejected') throw result.reason;
    started.project = await createProject(started.polyflow as PolyflowInstance, domains);
    started.demo = await startDemoDapp({
      polyflowUrl: (started.polyflow as PolyflowInstance).url,
      apiKey: started.project.apiKey,
      port: 0,
      rpcUrl: (started.chain as TestChain).rpcUrl,
    });
    return started as SdkStack;
  } catch (error) {
    await stopSdkStack(started);
    throw error;
  }
}

/**
 * For journeys that never stop their server (they read what they check through the console and the page's
 * own requests): the demo dapp on a chain of the spec file's own, sending to the run's shared server
 * (global-setup.ts) for a project of a new owner's, instead of a server of their own. Starting and stopping
 * a server and its stores cost each of them seconds of CPU on the run's two cores. The Live journey keeps
 * its own: on the shared server its Analytics check missed its 10 s on a loaded machine (ADR 133).
 */
export interface DappStack {
  chain: TestChain;
  /** The shared server's URL. */
  polyflowUrl: string;
  /** The project's owner, verified through the mail sink; the only project on the account. */
  owner: Account;
  project: { id: string; apiKey: string };
  demo: DemoDapp;
}

export async function startDappStack(domains: string[] = ['localhost']): Promise<DappStack> {
  const polyflowUrl = process.env.POLYFLOW_URL;
  if (!polyflowUrl) throw new Error('POLYFLOW_URL is not set: run the tests through playwright.config.ts');
  const [chainStart, ownerStart] = await Promise.allSettled([
    startChain(),
    createVerifiedAccount('dapp-owner'),
  ]);
  const chain = chainStart.status === 'fulfilled' ? chainStart.value : undefined;
  try {
    if (chainStart.status === 'rejected') throw chainStart.reason;
    if (ownerStart.status === 'rejected') throw ownerStart.reason;
    const owner = ownerStart.value;
    const { id, apiKey } = await createSharedProject(owner, 'Demo dapp', domains);
    if (!apiKey) throw new Error('The project was created without an API key');
    const demo = await startDemoDapp({ polyflowUrl, apiKey, port: 0, rpcUrl: chainStart.value.rpcUrl });
    return { chain: chainStart.value, polyflowUrl, owner, project: { id, apiKey }, demo };
  } catch (error) {
    await chain?.stop();
    throw error;
  }
}

export async function stopDappStack({ chain, demo }: Partial<DappStack>): Promise<void> {
  await demo?.close();
  await chain?.stop();
}
