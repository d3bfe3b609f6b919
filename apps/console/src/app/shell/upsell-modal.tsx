import { useId, useState } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';

export function UpsellModal({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const [isComingSoon, setIsComingSoon] = useState(false);
  const offerId = useId();
  const close = () => {
    setIsComingSoon(false);
    onClose();
  };
  return (
    <Modal isOpen={isOpen} title="Hello Friend!" onClose={close} descriptionId={offerId}>
      <div className="flex flex-col gap-4 text-sm text-slate-700">
        <div id={offerId} className="flex flex-col gap-4">
          <p>
            Thank you for considering a Polyflow subscription. It keeps the product independent and growing.
          </p>
          <p className="rounded-lg bg-indigo-50 p-3 font-semibold text-indigo-900">
            Subscribe now and keep a 50% lifetime discount for as long as you stay with us.
          </p>
        </div>
        {isComingSoon && <Alert tone="info">Subscriptions open soon. We will email you when they do.</Alert>}
        <Button onClick={() => setIsComingSoon(true)}>Buy Subscription &amp; Claim discount</Button>
      </div>
    </Modal>
  );
}
