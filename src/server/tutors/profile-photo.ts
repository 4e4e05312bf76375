/**
 * Profile photos: checked by their content (JPEG, PNG or WebP, whatever the file is called),
 * turned upright, cropped to a small square and stored as WebP in the database, so every server
 * shares them and no upload is ever served as it came.
 *
 * Decoding is where an upload costs memory, and a small file can unpack to a huge image, so
 * the image is sized up from its header before anything is decoded, and the whole
 * process decodes at most two at a time.
 */
import { createHash } from 'node:crypto';
import { PHOTO_SIZE_PIXELS } from '../../shared/tutor-catalog';
import { ApiError } from '../http/api-error';
import { ConcurrencyLimit } from '../rate-limit/concurrency-limit';

const accepted = new Set(['jpeg', 'png', 'webp']);

/**
 * Phones take 12 or 24 megapixel photos by default and 48-50 in their high-resolution modes
 * (8192 x 6144 is the largest 50 MP sensor's), so every photo a phone makes gets through. An image
 * may also unpack to no more memory than such a colour photo (3 bytes a pixel): alpha or 16 bits a
 * channel would double or triple it for the same pixels, and an interlaced PNG or progressive JPEG
 * is held whole while it is decoded. Measured with sharp, the worst that gets in peaks at about
 * 180 MB: a 50 MP progressive JPEG ~150 MB, a 37 MP interlaced RGBA PNG ~170 MB, a 19 MP
 * interlaced 16-bit RGBA PNG ~180 MB. Unbounded, that last kind reached 460 MB at 50 MP.
 */
export const MAX_PHOTO_MEGAPIXELS = 50;
const MAX_INPUT_PIXELS = 8192 * 6144;
const MAX_DECODED_BYTES = MAX_INPUT_PIXELS * 3;

/**
 * Every profile photo decoded in this process takes one of two slots (at most ~360 MB together);
 * a few more uploads wait up to 5 s for a turn, the rest are told to try again.
 */
export const photoDecodes = new ConcurrencyLimit({ slots: 2, maxWaiting: 8, maxWaitMs: 5000 });

export interface ProcessedPhoto {
  image: Buffer;
  contentType: 'image/webp';
  version: string;
}

/** sharp, loaded with the first photo rather than at start-up. */
const loadSharp = async () => (await import('sharp')).default;

async function readHeader(bytes: Uint8Array) {
  const sharp = await loadSharp();
  try {
    // Only the header is read: it says the format and the size before any pixel is decoded.
    return await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return undefined;
  }
}

export async function processPhoto(
  bytes: Uint8Array,
  decodes: ConcurrencyLimit = photoDecodes,
): Promise<ProcessedPhoto> {
  const header = await readHeader(bytes);
  if (!header?.format || !accepted.has(header.format)) {
    throw new ApiError(415, /*i18n*/ 'Please upload a JPEG, PNG or WebP image', 'UNSUPPORTED_IMAGE');
  }
  const pixels = (header.width ?? 0) * (header.height ?? 0);
  const bytesPerSample = header.depth === 'ushort' || header.depth === 'short' ? 2 : 1;
  if (pixels > MAX_INPUT_PIXELS || pixels * (header.channels ?? 4) * bytesPerSample > MAX_DECODED_BYTES) {
    throw new ApiError(
      413,
      /*i18n*/ 'This image is too large. Please upload a photo of at most 50 megapixels.',
      'IMAGE_TOO_LARGE',
    );
  }
  const sharp = await loadSharp();
  const image = await decodes.run(async () => {
    try {
      return await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize(PHOTO_SIZE_PIXELS, PHOTO_SIZE_PIXELS, { fit: 'cover', position: 'attention' })
        .webp({ quality: 80 })
        .toBuffer();
    } catch {
      throw new ApiError(
        400,
        /*i18n*/ 'This image could not be read. Please try another one.',
        'UNREADABLE_IMAGE',
      );
    }
  });
  const version = createHash('sha256').update(image).digest('base64url').slice(0, 16);
  return { image, contentType: 'image/webp', version };
}
