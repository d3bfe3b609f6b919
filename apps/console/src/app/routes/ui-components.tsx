import { ComponentsScreen } from '../../features/components/routes/components-screen';

export function UiComponentsPage() {
  return <ComponentsScreen />;
}
