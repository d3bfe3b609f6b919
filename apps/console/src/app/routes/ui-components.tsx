import { ComponentsScreen } from '../../features/ui-components/routes/components-screen';

export function UiComponentsPage() {
  return <ComponentsScreen />;
}
