/**
 * Profile photos: checked by their content (JPEG, PNG or WebP, whatever the file is called),
 * turned upright, cropped to a small square and stored as WebP in the database, so every server
 * shares them and no upload is ever served as it came.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { PHOTO_SIZE_PIXELS } from '../../shared/tutor-catalog';
import { ApiError } from '../http/api-error';

const accepted = new Set(['jpeg', 'png', 'webp']);
/** Refuse decompression bombs: a 5 MB file may not unpack to more than 50 megapixels. */
const MAX_INPUT_PIXELS = 50_000_000;

export interface ProcessedPhoto {
  image: Buffer;
  contentType: 'image/webp';
  version: string;
}

export async function processPhoto(bytes: Uint8Array): Promise<ProcessedPhoto> {
  let format: string | undefined;
  try {
    format = (await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
  } catch {
    format = undefined;
  }
  if (!format || !accepted.has(format)) {
    throw new ApiError(415, 'Please upload a JPEG, PNG or WebP image', 'UNSUPPORTED_IMAGE');
  }
  try {
    const image = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(PHOTO_SIZE_PIXELS, PHOTO_SIZE_PIXELS, { fit: 'cover', position: 'attention' })
      .webp({ quality: 80 })
      .toBuffer();
    const version = createHash('sha256').update(image).digest('base64url').slice(0, 16);
    return { image, contentType: 'image/webp', version };
  } catch {
    throw new ApiError(400, 'This image could not be read. Please try another one.', 'UNREADABLE_IMAGE');
  }
}
