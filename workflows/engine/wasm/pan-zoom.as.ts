// The moving image's resampler (AssemblyScript, built to pan-zoom.wasm by `npm run build:wasm`; the unit test
// pan-zoom.test.ts fails when the committed .wasm is not this file's build). One plane of one frame: the visible
// rectangle of a still picture stretched over the frame, bilinear with 8-bit weights, rounded as ffmpeg's
// perspective filter rounds (vf_perspective.c, resample_linear), so the output is that filter's to the bit. The
// rectangle is axis-aligned, so the work is separable: each needed source row is blended across once (a 16-bit
// intermediate), then each output row is a blend of two of those. The caller (pan-zoom.ts) lays out the memory and
// fills the tables; every table entry is an i32.

/**
 * src: the plane (width sw, rows sh); dst: the output plane (dw by dh); cols/colWeights: per output column, the
 * source column and the weight (0-255) of the one after it; rowA/rowB/rowWeights: per output row, the two source rows
 * and the weight of the second; first..last: the source rows any output row reads; tmp: (last - first + 1) * dw u16.
 */
export function plane(
  src: usize, sw: i32, dst: usize, dw: i32, dh: i32,
  cols: usize, colWeights: usize, rowA: usize, rowB: usize, rowWeights: usize,
  first: i32, last: i32, tmp: usize,
): void {
  for (let r = first; r <= last; r++) {
    const s = src + <usize>(r * sw);
    const o = tmp + (<usize>((r - first) * dw) << 1);
    for (let x = 0; x < dw; x++) {
      const k = <usize>x << 2;
      const w = load<i32>(colWeights + k);
      const p = s + <usize>load<i32>(cols + k);
      store<u16>(o + (<usize>x << 1), <u16>((256 - w) * <i32>load<u8>(p) + w * <i32>load<u8>(p, 1)));
    }
  }
  // the vertical blend, eight samples at a time (SIMD), the row's last few one by one
  const round = i32x4.splat(32768);
  const wide = dw & ~7;
  for (let y = 0; y < dh; y++) {
    const k = <usize>y << 2;
    const wv = load<i32>(rowWeights + k);
    const wi = 256 - wv;
    const vwv = i32x4.splat(wv);
    const vwi = i32x4.splat(wi);
    const a = tmp + (<usize>((load<i32>(rowA + k) - first) * dw) << 1);
    const b = tmp + (<usize>((load<i32>(rowB + k) - first) * dw) << 1);
    const o = dst + <usize>(y * dw);
    for (let x = 0; x < wide; x += 8) {
      const xx = <usize>x << 1;
      const va = v128.load(a + xx);
      const vb = v128.load(b + xx);
      const lo = i32x4.shr_u(i32x4.add(i32x4.add(i32x4.mul(i32x4.extend_low_i16x8_u(va), vwi), i32x4.mul(i32x4.extend_low_i16x8_u(vb), vwv)), round), 16);
      const hi = i32x4.shr_u(i32x4.add(i32x4.add(i32x4.mul(i32x4.extend_high_i16x8_u(va), vwi), i32x4.mul(i32x4.extend_high_i16x8_u(vb), vwv)), round), 16);
      const bytes = i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_u(lo, hi), i16x8.splat(0));
      v128.store64_lane(o + <usize>x, bytes, 0);
    }
    for (let x = wide; x < dw; x++) {
      const xx = <usize>x << 1;
      store<u8>(o + <usize>x, <u8>((<u32>wi * <u32>load<u16>(a + xx) + <u32>wv * <u32>load<u16>(b + xx) + 32768) >> 16));
    }
  }
}
