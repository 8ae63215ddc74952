/** One for the page: making one per read costs milliseconds on the scan path, and browsers cap how many live. */
let audio: AudioContext | null = null

/** A short beep and a vibration on a read, where the device has them; silent otherwise. */
export function signalRead(): void {
  navigator.vibrate?.(80)
  const AudioContextClass =
    window.AudioContext ?? (window as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext
  if (!AudioContextClass) return
  try {
    audio ??= new AudioContextClass()
    // Made outside a user gesture (a camera read), it starts suspended until the page has one.
    if (audio.state === 'suspended') void audio.resume()
    const oscillator = audio.createOscillator()
    const gain = audio.createGain()
    oscillator.frequency.value = 1760
    gain.gain.value = 0.08
    oscillator.connect(gain).connect(audio.destination)
    oscillator.start()
    oscillator.stop(audio.currentTime + 0.12)
  } catch {
    // No sound is no reason to fail a scan.
  }
}
