import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FilterSelectProvider } from '../filter-select';
import { ShareBars } from './share-charts';

describe('ShareBars', () => {
  it('says its figures in words: a named figure described by every bar, name and count together', () => {
    render(
      <ShareBars
        title="Countries"
        unit="Users"
        slices={[
          { name: 'United States', value: 695, isUnknown: false, filterValue: 'US' },
          { name: 'Germany', value: 210, isUnknown: false, filterValue: 'DE' },
          { name: 'Other (10 more)', value: 95, isUnknown: false, isOther: true },
        ]}
      />,
    );
    expect(
      screen.getByRole('figure', {
        name: 'Countries, bar chart',
        description: 'United States 695 (69.5%), Germany 210 (21%), Other (10 more) 95 (9.5%)',
      }),
    ).toBeTruthy();
  });

  it('names each bar label as every other filter button names it: "Filter by Country: <name>"', async () => {
    render(
      <FilterSelectProvider select={() => {}}>
        <div style={{ width: 600 }}>
          <ShareBars
            title="Countries"
            unit="Users"
            filterName="countries"
            slices={[
              { name: 'United States', value: 695, isUnknown: false, filterValue: 'US' },
              { name: 'Germany', value: 210, isUnknown: false, filterValue: 'DE' },
            ]}
          />
        </div>
      </FilterSelectProvider>,
    );
    const button = await screen.findByRole('button', { name: 'Filter by Country: United States' });
    expect(button.getAttribute('aria-description')).toBe('695 users');
  });
});
