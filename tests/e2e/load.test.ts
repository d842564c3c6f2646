// Load: 100 uploads through the app's worker, then the dashboards, the records list's pages and the explorer.
// Nothing lost, the chain valid, the main thread never blocked over 100 ms. `npm run bench:load` runs 1,000.
import { RECORDS_PAGE_SIZE } from '../../workers/core/constants';
import { describe, expect, test } from './support/fixtures';
import { runLoadScenario } from './support/load';

const UPLOADS = 100;

describe('load', () => {
  test(`${UPLOADS} uploads: every record counted on every screen and listed on Medical Records' pages, the chain valid, no main-thread task over 100 ms of work`, async ({
    page,
    browser,
  }) => {
    const report = await runLoadScenario(page, browser, { uploads: UPLOADS, concurrency: 20, formUploads: 3 });
    console.log(`[load] ${JSON.stringify(report)}`);

    const { expectedRecords } = report;
    expect(expectedRecords).toBe(1 + 3 + UPLOADS);
    expect(report.storedBlocks).toBe(expectedRecords);
    expect(report.storedDocuments).toBe(3 + UPLOADS);
    expect(report.orphans).toEqual([]);
    expect(report.shownRecords).toEqual({
      dashboard: expectedRecords,
      recordsScreen: expectedRecords, // every record on Medical Records' pages, each on one page only
      doctorToday: 3 + UPLOADS, // Records Today counts uploads of the day, not the setup diagnosis
      explorerBlocks: expectedRecords,
    });
    expect(report.recordsPages).toEqual({ pages: Math.ceil(expectedRecords / RECORDS_PAGE_SIZE), rows: expectedRecords });
    expect(report.chainShown.dashboard).toBe('Valid');
    expect(report.chainShown.explorer).toContain('Chain valid.');
    // 100 ms is held by the main thread's own CPU time per task (trace). The PerformanceObserver's wall time also
    // counts time the OS gave other processes: on this shared 2-core machine at load 8 a 23 ms task measured
    // 117 ms. It still has to stay under 300 ms, which a real freeze (1,000 records at once: 1.6 s) would not.
    const phases = `wall ${JSON.stringify(report.longestTaskMsByPhase)}, CPU ${JSON.stringify(report.longestTaskCpuMsByPhase)}`;
    expect(report.longestTaskCpuMs, phases).toBeLessThanOrEqual(100);
    expect(report.longestTaskMs, phases).toBeLessThanOrEqual(300);
  }, 240_000);
});
