import { describe, expect, it } from 'vitest';
import { renderShellTemplates } from '../../src/app/prerender-shell';
import { USERS } from '../../workers/core/directory';

// In Node, as the build runs it (vite.config.ts, prerenderScreens): each user's frame, keyed by the template's id.
async function frames(): Promise<Map<string, { path: string; html: string }>> {
  const html = await renderShellTemplates();
  const found = [...html.matchAll(/<template id="shell-([^"]+)" data-path="([^"]+)">(.*?)<\/template>/gs)];
  return new Map(found.map(([, id, path, body]) => [id, { path, html: body }]));
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ');
const menu = (html: string) => /<nav aria-label="Main menu">(.*?)<\/nav>/s.exec(html)?.[1] ?? '';

describe('Pre-rendered dashboard frames', () => {
  it("holds one frame per user of the directory, at their role's dashboard, with their name and their role's menu", async () => {
    const shells = await frames();
    expect([...shells.keys()].sort()).toEqual(USERS.map((user) => user.id).sort());
    const doctor = shells.get('doctor-1')!;
    expect(doctor.path).toBe('/doctor/dashboard');
    expect(doctor.html).toContain('<h1 class="page-title">Welcome, Dr. Emily Carter</h1>');
    expect(text(menu(doctor.html))).toContain('SOS Emergency');
    const patient = shells.get('patient-2')!;
    expect(patient.path).toBe('/patient/dashboard');
    expect(patient.html).toContain('<h1 class="page-title">Welcome back, Michael Chen</h1>');
    expect(text(menu(patient.html))).not.toContain('SOS Emergency');
  });

  it('shows no record and no chain figure, and says the records are being checked', async () => {
    for (const { html } of (await frames()).values()) {
      expect(text(html)).toContain('Checking your records on this device...');
      expect(text(html)).not.toMatch(/Total Blocks|Valid|block height/i);
      const figures = [...html.matchAll(/<div class="stat-value">([^<]*)<\/div><\/div><\/div><\/div>/g)].map((match) => match[1]);
      expect(figures).toEqual(['...', '...']); // the two real figures; the other two are tagged samples
    }
  });
});
