// Runs the kikoplay CLI from source (tests spawn it with `node --import tsx`).
import { run } from '../../cli/main.js';

run(process.argv);
