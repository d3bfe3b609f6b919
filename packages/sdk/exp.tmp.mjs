import { build } from 'esbuild';
import { minify } from 'terser';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
const root = process.cwd();
const scriptLoader = { name: 's', setup(b) { b.onResolve({ filter: /\/load-events\.ts$/ }, () => ({ path: join(root, 'src', 'load-events.script.ts') })); } };
const res=[];
for (const es of [{minify:true},{minifySyntax:true},{minifySyntax:true,minifyWhitespace:true},{minifyIdentifiers:true,minifySyntax:true}, {}]) {
  const out = await build({ entryPoints: [root + '/src/script.ts'], bundle: true, ...es, format: 'iife', target: 'es2021', platform: 'browser', legalComments: 'none', write: false, plugins: [scriptLoader] });
  for (const passes of [1,2,3]) for (const hoist of [true,false]) for (const ecma of [2015, 2020]) {
    const { code } = await minify(out.outputFiles[0].text, { ecma, compress: { passes, hoist_funs: hoist }, mangle: true });
    res.push([gzipSync(code, { level: 9 }).length, JSON.stringify(es), passes, hoist, ecma]);
  }
}
res.sort((a,b)=>a[0]-b[0]); console.log(res.slice(0,8).map(r=>r.join(' ')).join('\n'));
