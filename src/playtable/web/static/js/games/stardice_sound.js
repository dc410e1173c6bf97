// Star Dice's sound effects, made on the spot with the Web Audio API (no sound files): a die
// landing (a short knock, its pitch varied each time), a formation forming (a rising pair of
// notes, chosen from a few chords so it is not the same every time) and breaking (falling), and
// a battle won (an arpeggio). Muted until the page is touched (browsers start audio only after a
// gesture) and whenever the mute switch is on.

const CHORDS = [[523.3, 659.3, 784.0], [587.3, 740.0, 880.0], [493.9, 622.3, 740.0], [440.0, 554.4, 659.3]];

export class Sounds {
  constructor() {
    this.muted = false;
    this.audio = null;
    this.turn = 0;
  }

  /** Called from a user gesture: the browser lets a page start audio only then. */
  unlock() {
    if (this.audio || typeof AudioContext === "undefined") return;
    try { this.audio = new AudioContext(); } catch { this.audio = null; }
  }

  tone(freq, start, length, type = "sine", gain = 0.15) {
    const a = this.audio;
    if (!a || this.muted) return;
    const osc = a.createOscillator();
    const env = a.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    const t = a.currentTime + start;
    env.gain.setValueAtTime(0.0001, t);
    env.gain.exponentialRampToValueAtTime(gain, t + 0.01);
    env.gain.exponentialRampToValueAtTime(0.0001, t + length);
    osc.connect(env).connect(a.destination);
    osc.start(t);
    osc.stop(t + length + 0.02);
  }

  landed() {
    this.tone(140 + Math.random() * 90, 0, 0.12, "triangle", 0.25);
  }

  formed() {
    const chord = CHORDS[this.turn++ % CHORDS.length];
    chord.forEach((f, i) => this.tone(f, i * 0.07, 0.35));
  }

  broken() {
    const chord = CHORDS[this.turn++ % CHORDS.length];
    [...chord].reverse().forEach((f, i) => this.tone(f / 2, i * 0.08, 0.3, "sawtooth", 0.06));
  }

  won() {
    const chord = CHORDS[Math.floor(Math.random() * CHORDS.length)];
    [...chord, chord[0] * 2, chord[2], chord[0] * 2].forEach((f, i) => this.tone(f, i * 0.12, 0.4, "square", 0.05));
  }
}
