import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './import-cycles.ts';

describe('import cycles', () => {
  it('src/modules/reports has none (the renderer, the report worker and the PDF layouts meet in report.kinds.ts)', () => {
    expect(importCycles(importGraph(join(process.cwd(), 'src/modules/reports')))).toEqual([]);
  });

  it('finds a cycle through type-only imports and re-exports, and none in a chain', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tocsin-cycles-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport const a = 1;\n");
      writeFileSync(join(dir, 'b.ts'), "export { c } from './c.ts';\nexport type B = number;\n");
      writeFileSync(join(dir, 'c.ts'), "import {\n  a,\n} from './a.ts';\nexport const c = a;\n");
      writeFileSync(join(dir, 'd.ts'), "import { a } from './a.ts';\nimport './e.ts';\n");
      writeFileSync(join(dir, 'e.ts'), 'export {};\n');
      writeFileSync(join(dir, 'e.test.ts'), "import { a } from './d.ts';\n");
      const graph = importGraph(dir);
      expect(graph.get('d.ts')).toEqual(['a.ts', 'e.ts']);
      expect(importCycles(graph)).toEqual(['a.ts -> b.ts -> c.ts -> a.ts']);
      expect(importCycles(new Map([...graph].filter(([f]) => f !== 'c.ts')))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
