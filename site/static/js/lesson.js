// A lesson page: mounts the experiment its lesson file declares, and fits
// it to the screen (screen.js).
import { mountExperiment } from './experiment.js';
import { mountScreen } from './screen.js';

const config = JSON.parse(document.getElementById('lesson-config').textContent);
mountExperiment(document.getElementById('experiment'), config, { urlState: true }).then(mountScreen);
