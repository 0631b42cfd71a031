package io.triplerpc.interop.dubbo.api.rest.springmvc;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.util.MultiValueMap;

/**
 * The one implementation of {@link DemoService}, which the Dubbo peer exports and Triple's tests serve,
 * so that a difference in an answer can only come from the framework. Each method answers with what it
 * received, written so that its type and value show ({@code "Hello " + id + " " + name}); unlike the
 * sample's implementation, which parses its string bodies with fastjson2, a string body comes back as
 * it arrived. {@link #error()} throws, as the sample's does.
 */
public final class DemoServices implements DemoService {

  private static final String PREFIX = "Hello ";

  @Override
  public String hello(String name) {
    return PREFIX + name;
  }

  @Override
  public String getParam(String id) {
    return PREFIX + id;
  }

  @Override
  public String getVariable(String id) {
    return PREFIX + id;
  }

  @Override
  public String getMuchParam(String id, String name) {
    return PREFIX + id + " " + name;
  }

  @Override
  public String getMuchVariable(String id, String name) {
    return PREFIX + id + " " + name;
  }

  @Override
  public String getReg(String name, String version, String ext) {
    return PREFIX + name + " " + version + " " + ext;
  }

  @Override
  public String postBody(String name) {
    return PREFIX + name;
  }

  @Override
  public String postParam(String id) {
    return PREFIX + id;
  }

  @Override
  public String postVariable(String id) {
    return PREFIX + id;
  }

  @Override
  public String postUseConsumes(String id) {
    return PREFIX + id;
  }

  @Override
  public String error() {
    throw new IllegalStateException("error() always fails");
  }

  @Override
  public String postUseParams(String id) {
    return PREFIX + id;
  }

  @Override
  public String getHead(String id) {
    return PREFIX + id;
  }

  @Override
  public String postUseConsumesFormData(MultiValueMap<String, String> formData) {
    return PREFIX + new TreeMap<>(formData);
  }

  @Override
  public String postUseConsumesUser(MultiValueMap<String, List<User>> formData) {
    return PREFIX + new TreeMap<Object, Object>(Map.copyOf(formData));
  }

  @Override
  public String postMapUser(String formData) {
    return PREFIX + formData;
  }

  @Override
  public String putUpdateId(String id) {
    return PREFIX + id;
  }

  @Override
  public String deleteId(String id) {
    return PREFIX + id;
  }

  @Override
  public String patchById(String id, String patchData) {
    return PREFIX + id + " " + patchData;
  }

  @Override
  public int primitiveInt(int a, int b) {
    return a + b;
  }

  @Override
  public long primitiveLong(long a, Long b) {
    return a + b;
  }

  @Override
  public long primitiveByte(byte a, Long b) {
    return a + b;
  }

  @Override
  public long primitiveShort(short a, Long b, int c) {
    return a + b + c;
  }

  @Override
  public List<User> postList(List<User> users) {
    return users;
  }
}
