/**
 * Where the files of CSV jobs live: an S3 bucket behind {@link org.vfps.objectstore.ObjectStore}
 * (the AWS SDK for Java v2), presigned upload and download URLs, the bucket's lifecycle and CORS
 * rules, and the embedded development store. Nothing outside this package sees the SDK.
 */
package org.vfps.objectstore;
